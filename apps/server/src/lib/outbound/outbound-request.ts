import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { TLSSocket } from 'node:tls';
import { type AllowedRange, classifyAddress } from './address-policy.ts';

/**
 * Every HTTP request the server makes goes through here (webhooks, Telegram, remote sources). For a
 * guarded request the host is resolved once, every address is checked (address-policy.ts), and the
 * connection is made to exactly those addresses (a pinned `lookup`), so DNS cannot answer differently
 * between the check and the connect. Redirects are never followed: a 3xx comes back as a status.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; tests pass their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** Private ranges the operator allowed (OUTBOUND_ALLOWED_RANGES). */
  allowedRanges: readonly AllowedRange[];
  /**
   * An operator-configured URL (SOURCE_<TYPE>_URL, TELEGRAM_API_URL): no address check, since the
   * operator may point it at an internal service on purpose; still no redirects.
   */
  trusted?: boolean;
  resolve?: Resolver;
}

export type OutboundFailureKind = 'invalid' | 'forbidden' | 'dns' | 'timeout' | 'connect' | 'too_large';

/** A request that could not be made or finished. `permanent`: the same request can never succeed. */
export class OutboundError extends Error {
  readonly kind: OutboundFailureKind;
  readonly permanent: boolean;
  constructor(kind: OutboundFailureKind, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.kind = kind;
    this.permanent = kind === 'invalid' || kind === 'forbidden';
  }
}

export const OUTBOUND_MESSAGES = {
  invalid: 'Адрес должен начинаться с https:// или http://',
  credentials: 'Адрес не должен содержать логин и пароль',
  forbidden: (shown: string) => `Адрес указывает на внутреннюю сеть (${shown}). Такие адреса запрещены`,
  dns: 'Адрес не найден (DNS)',
  timeout: 'Нет ответа за отведённое время',
  // One text for refused, reset, unreachable, TLS and protocol errors: it must not tell open ports from closed.
  connect: 'Не удалось соединиться с адресом',
  tooLarge: 'Ответ слишком большой',
} as const;

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
    }),
  ]).finally(() => clearTimeout(timer));
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new OutboundError('invalid', OUTBOUND_MESSAGES.invalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid', OUTBOUND_MESSAGES.invalid);
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('invalid', OUTBOUND_MESSAGES.credentials);
  }
  return url;
}

export interface CheckedTarget {
  url: URL;
  /** The addresses to connect to; empty for a trusted URL (the system resolver decides). */
  addresses: ResolvedAddress[];
}

/**
 * Parses the URL and, unless trusted, resolves its host and checks every address. Throws an
 * OutboundError: `invalid` / `forbidden` (permanent), `dns` or `timeout` (may pass later).
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy,
  options: { timeoutMs: number },
): Promise<CheckedTarget> {
  const url = parseUrl(raw);
  if (policy.trusted) {
    return { url, addresses: [] };
  }
  // WHATWG URL has already turned 2130706433, 0x7f.1, 0177.0.0.1 and the like into dotted decimal.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await withDeadline(
        (policy.resolve ?? systemResolver)(host),
        options.timeoutMs,
        () => new OutboundError('timeout', OUTBOUND_MESSAGES.timeout),
      );
    } catch (error) {
      if (error instanceof OutboundError) {
        throw error;
      }
      throw new OutboundError('dns', OUTBOUND_MESSAGES.dns);
    }
    if (addresses.length === 0) {
      throw new OutboundError('dns', OUTBOUND_MESSAGES.dns);
    }
  }
  for (const { address } of addresses) {
    if (!classifyAddress(address, policy.allowedRanges).allowed) {
      // The host as written, never what an internal name resolved to.
      throw new OutboundError('forbidden', OUTBOUND_MESSAGES.forbidden(url.hostname));
    }
  }
  return { url, addresses };
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Empty unless the request asked to read the body. */
  body: Buffer;
}

export interface OutboundRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** For the whole request: DNS, connect, answer and body. */
  timeoutMs: number;
  policy: OutboundPolicy;
  /** Read the answer's body (up to maxResponseBytes); webhooks never read it. */
  readBody?: boolean;
  maxResponseBytes?: number;
  /**
   * Asked once the connection is ready, right before the request's first byte is written; false
   * drops it unwritten (RequestNotSent). A connection may take a while (a new one, TLS, a busy event
   * loop): a rate-limited request checks here that its time has not passed meanwhile.
   */
  stillWanted?: () => boolean;
}

/** The request was dropped before any byte of it was written: `stillWanted` said no. */
export class RequestNotSent extends Error {
  constructor() {
    super('request dropped before it was written');
    this.name = 'RequestNotSent';
  }
}

/** Connects only to the checked addresses, whatever the system resolver would say now. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    if (usable.length === 0) {
      callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

/**
 * Connections kept open to operator-configured hosts (a trusted policy: providers, Telegram). A
 * provider is asked hundreds of times a second: a new TCP (and TLS) connection per request cost a
 * handshake each and bunched the requests at the provider. Closed after 4 s idle, before the 5 s many
 * servers keep an idle connection, so a request rarely meets one the server just closed. A guarded
 * request (a tenant's URL) gets a fresh connection to its checked addresses every time.
 */
const TRUSTED_AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 4000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 4000 }),
};

export async function outboundRequest(
  raw: string,
  options: OutboundRequestOptions,
): Promise<OutboundResponse> {
  const started = Date.now();
  const target = await checkOutboundUrl(raw, options.policy, { timeoutMs: options.timeoutMs });
  const remaining = options.timeoutMs - (Date.now() - started);
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let response: http.IncomingMessage | undefined;
    const finish = (error: OutboundError | RequestNotSent | undefined, result?: OutboundResponse) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        response?.destroy();
        reject(error);
      } else {
        resolve(result!);
      }
    };
    const timer = setTimeout(
      () => finish(new OutboundError('timeout', OUTBOUND_MESSAGES.timeout)),
      Math.max(0, remaining),
    );
    const request = transport.request(
      target.url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent:
          options.policy.trusted && target.addresses.length === 0
            ? TRUSTED_AGENTS[target.url.protocol as 'http:' | 'https:']
            : false,
        ...(target.addresses.length > 0 ? { lookup: pinnedLookup(target.addresses) } : {}),
      },
      (incoming) => {
        response = incoming;
        const status = incoming.statusCode ?? 0;
        if (!options.readBody) {
          // The remote body is never read, so it can never reach a log.
          incoming.destroy();
          finish(undefined, { status, headers: incoming.headers, body: Buffer.alloc(0) });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            finish(new OutboundError('too_large', OUTBOUND_MESSAGES.tooLarge));
          } else {
            chunks.push(chunk);
          }
        });
        incoming.on('end', () =>
          finish(undefined, { status, headers: incoming.headers, body: Buffer.concat(chunks) }),
        );
        incoming.on('error', () => finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect)));
        incoming.on('close', () => {
          if (!incoming.complete) {
            finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect));
          }
        });
      },
    );
    request.on('error', () => finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect)));
    const { stillWanted } = options;
    if (!stillWanted) {
      request.end(options.body);
      return;
    }
    // Nothing is written before end() (no flushHeaders): the last look comes when the connection can
    // take the bytes at once, a kept one at once, a new one once connected (and, for TLS, secured).
    request.once('socket', (socket) => {
      const write = () => {
        if (stillWanted()) {
          request.end(options.body);
        } else {
          finish(new RequestNotSent());
        }
      };
      if (socket.connecting) {
        socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', write);
      } else {
        write();
      }
    });
  });
}

/** The policy for tenant-given URLs under this configuration. */
export function outboundPolicy(config: { outboundAllowedRanges: readonly AllowedRange[] }): OutboundPolicy {
  return { allowedRanges: config.outboundAllowedRanges };
}

/**
 * A GET whose body is written to a file as it arrives (the MVD passport list: hundreds of MB), under
 * the same rules: checked target, no redirect followed, one deadline for the whole download.
 * `accept(status, headers)` decides from the answer's head whether the body is wanted; when it is not,
 * the connection is dropped unread and nothing is written. More than `maxBytes` fails `too_large`.
 */
export async function outboundDownload(
  raw: string,
  options: {
    headers?: Record<string, string>;
    timeoutMs: number;
    policy: OutboundPolicy;
    accept: (status: number, headers: http.IncomingHttpHeaders) => boolean;
    /** Opens the file once the body is accepted; the download pipes into it. */
    open: () => NodeJS.WritableStream;
    maxBytes: number;
    onBytes?: (bytes: number) => void;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; saved: boolean }> {
  const started = Date.now();
  const target = await checkOutboundUrl(raw, options.policy, { timeoutMs: options.timeoutMs });
  const remaining = options.timeoutMs - (Date.now() - started);
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    let response: http.IncomingMessage | undefined;
    let file: NodeJS.WritableStream | undefined;
    const finish = (
      error: OutboundError | undefined,
      result?: Awaited<ReturnType<typeof outboundDownload>>,
    ) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        response?.destroy();
        (file as (NodeJS.WritableStream & { destroy?: () => void }) | undefined)?.destroy?.();
        reject(error);
      } else {
        resolve(result!);
      }
    };
    const timer = setTimeout(
      () => finish(new OutboundError('timeout', OUTBOUND_MESSAGES.timeout)),
      Math.max(0, remaining),
    );
    const request = transport.request(
      target.url,
      {
        method: 'GET',
        headers: options.headers,
        agent: false,
        ...(target.addresses.length > 0 ? { lookup: pinnedLookup(target.addresses) } : {}),
      },
      (incoming) => {
        response = incoming;
        const status = incoming.statusCode ?? 0;
        if (!options.accept(status, incoming.headers)) {
          incoming.destroy();
          finish(undefined, { status, headers: incoming.headers, saved: false });
          return;
        }
        const out = options.open();
        file = out;
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          options.onBytes?.(size);
          if (size > options.maxBytes) {
            finish(new OutboundError('too_large', OUTBOUND_MESSAGES.tooLarge));
          }
        });
        incoming.on('error', () => finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect)));
        incoming.on('close', () => {
          if (!incoming.complete) {
            finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect));
          }
        });
        out.on('error', () => finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect)));
        out.on('finish', () => finish(undefined, { status, headers: incoming.headers, saved: true }));
        incoming.pipe(out);
      },
    );
    request.on('error', () => finish(new OutboundError('connect', OUTBOUND_MESSAGES.connect)));
    request.end();
  });
}
