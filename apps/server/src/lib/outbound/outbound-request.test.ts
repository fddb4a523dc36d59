import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAllowedRanges } from './address-policy.ts';
import {
  checkOutboundUrl,
  OUTBOUND_MESSAGES,
  OutboundError,
  type OutboundPolicy,
  outboundRequest,
  RequestNotSent,
  type Resolver,
} from './outbound-request.ts';

// A receiver on loopback: it records every request, and /redirect sends the caller to /secret.
const hits: { path: string; host: string }[] = [];
const server = http.createServer((request, response) => {
  hits.push({ path: request.url ?? '', host: request.headers.host ?? '' });
  if (request.url === '/redirect') {
    response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
    response.end();
  } else if (request.url === '/slow') {
    setTimeout(() => response.end('late'), 2000);
  } else if (request.url === '/big') {
    response.end('x'.repeat(10_000));
  } else {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('internal secret body');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
let connections = 0;
server.on('connection', () => {
  connections++;
});

// A TCP service that is not HTTP: it answers garbage, or drops the connection.
const raw = net.createServer((socket) => {
  socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
});
await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
const rawPort = (raw.address() as AddressInfo).port;

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => raw.close(() => resolve()));
});

beforeEach(() => {
  hits.length = 0;
});

const strict: OutboundPolicy = { allowedRanges: [] };
const loopbackAllowed: OutboundPolicy = { allowedRanges: parseAllowedRanges('127.0.0.0/8') };

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const free = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundError);
    return error as OutboundError;
  }
  throw new Error('expected the request to fail');
}

describe('checkOutboundUrl and outboundRequest: refused addresses', () => {
  it.each([
    ['http://127.0.0.1:PORT/', '127.0.0.1'],
    ['http://2130706433:PORT/', '127.0.0.1'],
    ['http://0x7f.1:PORT/', '127.0.0.1'],
    ['http://0x7f000001:PORT/', '127.0.0.1'],
    ['http://017700000001:PORT/', '127.0.0.1'],
    ['http://0177.0.0.1:PORT/', '127.0.0.1'],
    ['http://127.1:PORT/', '127.0.0.1'],
    ['http://0:PORT/', '0.0.0.0'],
    ['http://0.0.0.0:PORT/', '0.0.0.0'],
    ['http://[::1]:PORT/', '[::1]'],
    ['http://[::]:PORT/', '[::]'],
    ['http://[::ffff:127.0.0.1]:PORT/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:ffff:169.254.169.254]/latest/meta-data/', '[::ffff:a9fe:a9fe]'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/latest/meta-data/', '[fd00:ec2::254]'],
    ['http://10.0.0.1/', '10.0.0.1'],
    ['http://172.16.5.4/', '172.16.5.4'],
    ['http://192.168.0.1/', '192.168.0.1'],
    ['http://100.64.0.1/', '100.64.0.1'],
    ['http://224.0.0.1/', '224.0.0.1'],
    ['https://[fe80::1]/', '[fe80::1]'],
    ['https://[fc00::1]/', '[fc00::1]'],
    ['http://[64:ff9b::a00:1]/', '[64:ff9b::a00:1]'],
    ['HTTP://LOCALHOST:PORT/', 'localhost'],
    ['http://localhost.:PORT/', 'localhost.'],
  ])('%s is refused before any connection', async (template, shown) => {
    const url = template.replace('PORT', String(port));
    const resolve: Resolver = async (hostname) => {
      // IP literals never reach DNS; only `localhost` does, and it means loopback.
      expect(hostname).toMatch(/^localhost\.?$/);
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    };
    const error = await failure(outboundRequest(url, { timeoutMs: 2000, policy: { ...strict, resolve } }));
    expect(error.kind).toBe('forbidden');
    expect(error.permanent).toBe(true);
    expect(error.message).toBe(`Адрес указывает на внутреннюю сеть (${shown}). Такие адреса запрещены`);
    expect(hits).toEqual([]);
  });

  it('refuses `localhost` through the system resolver too', async () => {
    const error = await failure(checkOutboundUrl(`http://localhost:${port}/`, strict, { timeoutMs: 2000 }));
    expect(error.message).toBe('Адрес указывает на внутреннюю сеть (localhost). Такие адреса запрещены');
  });

  it('refuses a host name when any of its addresses is internal, naming the host, not the address', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    const error = await failure(
      checkOutboundUrl('https://hooks.bank.example/in', { ...strict, resolve }, { timeoutMs: 2000 }),
    );
    expect(error.message).toBe(
      'Адрес указывает на внутреннюю сеть (hooks.bank.example). Такие адреса запрещены',
    );
    expect(error.message).not.toContain('10.1.2.3');
  });

  it('refuses other schemes and logins in the URL', async () => {
    for (const url of ['ftp://bank.example/hook', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'not a url']) {
      const error = await failure(checkOutboundUrl(url, strict, { timeoutMs: 1000 }));
      expect([error.kind, error.message]).toEqual(['invalid', OUTBOUND_MESSAGES.invalid]);
    }
    const error = await failure(
      checkOutboundUrl('https://user:pass@hooks.bank.example/', strict, { timeoutMs: 1000 }),
    );
    expect([error.kind, error.message]).toEqual(['invalid', OUTBOUND_MESSAGES.credentials]);
  });

  it('reports an unknown host as a DNS failure that may pass later', async () => {
    const resolve: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await failure(
      checkOutboundUrl('https://nowhere.example/', { ...strict, resolve }, { timeoutMs: 1000 }),
    );
    expect([error.kind, error.permanent, error.message]).toEqual(['dns', false, 'Адрес не найден (DNS)']);
  });
});

describe('outboundRequest: connecting', () => {
  it('connects to the address it checked, whatever DNS says afterwards (no rebinding)', async () => {
    const answers = ['127.0.0.1', '10.9.9.9'];
    const asked: string[] = [];
    const resolve: Resolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: answers.shift() ?? '10.9.9.9', family: 4 }];
    };
    const response = await outboundRequest(`http://hooks.rebind.example:${port}/pinned`, {
      timeoutMs: 2000,
      policy: { ...loopbackAllowed, resolve },
      readBody: true,
    });
    expect(response.status).toBe(200);
    // Resolved once, for the check; the socket went to that very address.
    expect(asked).toEqual(['hooks.rebind.example']);
    expect(hits).toEqual([{ path: '/pinned', host: `hooks.rebind.example:${port}` }]);
  });

  it('allows loopback only when the operator listed it', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/ok`, {
      timeoutMs: 2000,
      policy: loopbackAllowed,
      readBody: true,
    });
    expect([response.status, response.body.toString()]).toEqual([200, 'internal secret body']);
    const error = await failure(
      outboundRequest(`http://127.0.0.1:${port}/ok`, { timeoutMs: 2000, policy: strict }),
    );
    expect(error.kind).toBe('forbidden');
  });

  it('never follows a redirect: a 3xx comes back as it is', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/redirect`, {
      method: 'POST',
      body: '{}',
      timeoutMs: 2000,
      policy: loopbackAllowed,
    });
    expect(response.status).toBe(302);
    expect(hits.map((hit) => hit.path)).toEqual(['/redirect']);
  });

  it('does not read the body unless asked', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/ok`, {
      timeoutMs: 2000,
      policy: loopbackAllowed,
    });
    expect(response.body.length).toBe(0);
  });

  it('gives one text for a closed port, a non-HTTP service and no answer in time', async () => {
    const closed = await failure(
      outboundRequest(`http://127.0.0.1:${await closedPort()}/`, {
        timeoutMs: 2000,
        policy: loopbackAllowed,
      }),
    );
    const garbage = await failure(
      outboundRequest(`http://127.0.0.1:${rawPort}/`, { timeoutMs: 2000, policy: loopbackAllowed }),
    );
    expect([closed.kind, closed.message]).toEqual(['connect', 'Не удалось соединиться с адресом']);
    expect([garbage.kind, garbage.message]).toEqual(['connect', 'Не удалось соединиться с адресом']);
    const slow = await failure(
      outboundRequest(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200, policy: loopbackAllowed }),
    );
    expect([slow.kind, slow.permanent]).toEqual(['timeout', false]);
  });

  it('stops reading an answer larger than allowed', async () => {
    const error = await failure(
      outboundRequest(`http://127.0.0.1:${port}/big`, {
        timeoutMs: 2000,
        policy: loopbackAllowed,
        readBody: true,
        maxResponseBytes: 1000,
      }),
    );
    expect(error.kind).toBe('too_large');
  });

  it('skips the address check for the operator’s own (trusted) URLs, still without redirects', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/redirect`, {
      timeoutMs: 2000,
      policy: { allowedRanges: [], trusted: true },
    });
    expect(response.status).toBe(302);
    expect(hits.map((hit) => hit.path)).toEqual(['/redirect']);
  });
});

describe('connections', () => {
  it('keeps the connection to an operator’s (trusted) host for the next request; a guarded one connects afresh each time', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) {
      const response = await outboundRequest(`http://127.0.0.1:${port}/kept`, {
        timeoutMs: 2000,
        policy: { allowedRanges: [], trusted: true },
        readBody: true,
      });
      expect(response.body.toString()).toBe('internal secret body');
    }
    // A provider asked hundreds of times a second: a handshake per request would cost each one.
    expect(connections - before).toBe(1);
    const guarded = connections;
    for (let i = 0; i < 3; i++) {
      await outboundRequest(`http://127.0.0.1:${port}/fresh`, { timeoutMs: 2000, policy: loopbackAllowed });
    }
    // Checked addresses are pinned per request: no connection outlives its check.
    expect(connections - guarded).toBe(3);
  });

  it('asks stillWanted when the connection can take the bytes, and writes nothing when it says no', async () => {
    for (const policy of [{ allowedRanges: [], trusted: true }, loopbackAllowed]) {
      let asked = 0;
      const dropped = outboundRequest(`http://127.0.0.1:${port}/late`, {
        timeoutMs: 2000,
        policy,
        stillWanted: () => {
          asked++;
          return false;
        },
      });
      await expect(dropped).rejects.toBeInstanceOf(RequestNotSent);
      // Anything written would have reached the receiver by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hits).toEqual([]);
      expect(asked).toBe(1);
      const sent = await outboundRequest(`http://127.0.0.1:${port}/on-time`, {
        timeoutMs: 2000,
        policy,
        readBody: true,
        stillWanted: () => {
          asked++;
          return true;
        },
      });
      expect(sent.body.toString()).toBe('internal secret body');
      expect(hits.map((hit) => hit.path)).toEqual(['/on-time']);
      expect(asked).toBe(2);
      hits.length = 0;
    }
  });
});

describe('the server has one outbound HTTP client', () => {
  it('no other server module makes an HTTP request itself', async () => {
    const root = new URL('../../', import.meta.url).pathname;
    const files = (await readdir(root, { recursive: true })).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.startsWith('testing/') &&
        !file.startsWith('lib/outbound/'),
    );
    expect(files.length).toBeGreaterThan(50);
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8');
      if (
        // A global fetch (not a method named fetch), an HTTP client of node:http(s), TLS, undici or a
        // raw socket; a server (createServer) and types are no request.
        /(?<![\w.])(?<!async )fetch\(|from 'node:https'|from 'node:tls'|from 'undici'|\bhttps?\.(?:request|get)\(|import \{[^}]*\b(?:request|get)\b[^}]*\} from 'node:https?'|\b(?:net|tls)\.(?:connect|createConnection)\(/.test(
          text,
        )
      ) {
        offenders.push(file);
      }
    }
    // Anything that must reach a URL goes through outboundRequest (address checks, pinning, no redirects).
    expect(offenders).toEqual([]);
  });
});
