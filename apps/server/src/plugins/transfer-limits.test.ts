import { mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser } from '../testing/test-app.ts';

/**
 * Issue #27, finding 5, against a listening app over real sockets: a client that drips its upload
 * gets 408 and its partial file is removed; one that drips its headers or its request gets 408 too.
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-transfer-limits-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app } = await buildTestApp({
  config: {
    dataDir,
    uploadMinRate: 200,
    uploadRateWindow: 1,
    httpHeadersTimeout: 1,
    httpRequestTimeout: 3,
    httpIdleTimeout: 30,
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as net.AddressInfo;
const uploadsDir = path.join(dataDir, 'uploads');
const filesIn = async (dir: string) => readdir(dir).catch(() => [] as string[]);

interface Answer {
  raw: string;
  status: number;
  body: { statusCode?: number; code?: string; message?: string };
  closed: boolean;
  afterMs: number;
}

/** Opens a socket, sends `head`, then `chunk` every `everyMs` until the server answers or closes. */
function drip(head: string, chunk: string, everyMs: number, onTick?: () => Promise<void>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port });
    let raw = '';
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`no answer after 20 s; received: ${raw}`));
    }, 20_000);
    socket.setEncoding('utf8');
    socket.on('data', (data) => {
      raw += data;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const [headers = '', body = ''] = raw.split('\r\n\r\n');
      resolve({
        raw,
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0),
        body: body ? JSON.parse(body) : {},
        closed: true,
        afterMs: Date.now() - started,
      });
    });
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) {
          socket.write(chunk);
        }
        void onTick?.();
      }, everyMs);
    });
  });
}

describe('slow clients', () => {
  it('an upload dripping 20 bytes at a time gets 408 in Russian, the connection closed and its partial file removed', async () => {
    const user = await createSignedInUser(app, { role: 'analyst' });
    const boundary = 'slowdripboundary';
    const preamble =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\nvin;label\r\n';
    const head =
      'POST /api/v1/monitoring/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Authorization: Bearer ${user.token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n${preamble}`;
    const partialFiles = new Set<string>();
    const answer = await drip(head, 'XTA21099012345678;a\n', 250, async () => {
      for (const name of await filesIn(uploadsDir)) {
        partialFiles.add(name);
      }
    });
    expect(answer.status, answer.raw).toBe(408);
    expect(answer.body).toEqual({
      statusCode: 408,
      code: 'UPLOAD_TOO_SLOW',
      message:
        'Файл передавался слишком медленно, и загрузка прервана. Проверьте соединение и загрузите файл ещё раз',
    });
    expect(answer.raw.toLowerCase()).toContain('connection: close');
    expect(answer.afterMs).toBeLessThan(5_000);
    // The file was being written while the client dripped, and is gone once it was refused.
    expect(partialFiles.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await filesIn(uploadsDir)).toEqual([]);
    const { rowCount } = await app.db.query('SELECT 1 FROM uploads WHERE organisation_id = $1', [
      user.organisationId,
    ]);
    expect(rowCount).toBe(0);
  });

  it('an upload at a fair rate is not cut', async () => {
    const user = await createSignedInUser(app, { role: 'analyst' });
    const form = new FormData();
    form.append('file', new Blob(['vin;label\nXTA21099012345678;a\n'], { type: 'text/csv' }), 'ok.csv');
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/monitoring/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  });

  it('headers dripped past HTTP_HEADERS_TIMEOUT get 408 in Russian and the connection closed', async () => {
    const answer = await drip(
      'GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: a\r\n',
      200,
    );
    expect(answer.status, answer.raw).toBe(408);
    expect(answer.body.code).toBe('REQUEST_TIMEOUT');
    expect(answer.body.message).toMatch(/^Запрос передавался слишком долго/);
    expect(answer.afterMs).toBeLessThan(4_000);
  });

  const jsonHead =
    'POST /api/v1/user/reset-password HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    'Content-Length: 100000\r\n\r\n{"email":"';

  it('a JSON body slower than UPLOAD_MIN_RATE gets 408 in Russian at the end of a window', async () => {
    const answer = await drip(jsonHead, 'aaaaaaaaaa', 200);
    expect(answer.status, answer.raw).toBe(408);
    expect(answer.body.code).toBe('REQUEST_TIMEOUT');
    expect(answer.body.message).toMatch(/^Запрос передавался слишком долго/);
    expect(answer.afterMs).toBeLessThan(2_500);
  });

  it('a body fast enough for the rate but not done within HTTP_REQUEST_TIMEOUT gets 408', async () => {
    const answer = await drip(jsonHead, 'a'.repeat(100), 200);
    expect(answer.status, answer.raw).toBe(408);
    expect(answer.body.code).toBe('REQUEST_TIMEOUT');
    expect(answer.afterMs).toBeGreaterThanOrEqual(2_500);
    expect(answer.afterMs).toBeLessThan(6_000);
  });
});
