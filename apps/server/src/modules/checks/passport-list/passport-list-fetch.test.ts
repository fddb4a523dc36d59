import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Source } from '@pledgewatch/contract';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { withTransaction } from '../../../db/pool.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { createSourceAdapter } from '../sources/source-registry.ts';
import { passportListCsv } from '../testing/checks-test-helpers.ts';
import { createListImport, runSourceImport } from './passport-list.service.ts';
import { fetchPassportList } from './passport-list-fetch.ts';

// The "MVD" is a server on loopback: tests never reach a real address.
type Answer = {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Writes the body itself (a slow download), instead of `body`. */
  write?: (response: http.ServerResponse) => Promise<void>;
};
let answer: (request: http.IncomingMessage) => Answer = () => ({ status: 500 });
const requests: http.IncomingHttpHeaders[] = [];
const server = http.createServer((request, response) => {
  requests.push(request.headers);
  const { status, headers, body, write } = answer(request);
  response.writeHead(status, headers);
  if (write) {
    void write(response);
  } else {
    response.end(body);
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const listUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload/expired-passports/list_of_expired_passports.csv.bz2`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-passport-fetch-'));
const { app, config } = await buildTestApp({ config: { dataDir, passportListUrl: listUrl } });
afterAll(async () => {
  server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const bzip2 = (text: string) => execFileSync('bzip2', ['-c'], { input: text });
const fetchNow = () => fetchPassportList({ db: app.db, queue: app.queue, config });
const files = () => readdir(path.join(dataDir, 'source-imports')).catch(() => [] as string[]);
const activeVersion = async () =>
  (
    await app.db.query<{ version: number }>(
      `SELECT version FROM source_imports WHERE source_type = 'passport' AND status = 'active'`,
    )
  ).rows[0]?.version ?? null;
const listed = async (passport: string) =>
  (
    await createSourceAdapter('passport', { db: app.db, config }).check({
      kind: 'document',
      documentType: 'passport_rf',
      identifier: passport,
    })
  ).findings.length > 0;
const sourcesScreen = async (token: string) =>
  (await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(token) }))
    .json<{ items: Source[] }>()
    .items.find((source) => source.type === 'passport')!;
/**
 * Answers with the body's first `cut` bytes, the rest held until the returned release is called;
 * then the body ends (`finish`) or the connection is dropped.
 */
function answerInTwoParts(body: Buffer, etag: string, cut: number, finish: boolean): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  answer = () => ({
    status: 200,
    headers: { etag, 'content-length': String(body.length) },
    write: async (response) => {
      response.write(body.subarray(0, cut));
      await released;
      if (finish) {
        response.end(body.subarray(cut));
      } else {
        response.destroy();
      }
    },
  });
  return release;
}
/** A look at the address that must queue a new version, and that version's import run to its end. */
async function fetchAndImport() {
  const outcome = await fetchNow();
  expect(outcome.result).toBe('queued');
  await runSourceImport({
    db: app.db,
    config,
    importId: (outcome as { importId: string }).importId,
    lastAttempt: true,
  });
}
/** A second look that finds the same file: nothing downloaded, the active version kept. */
async function expectUnchanged() {
  const version = await activeVersion();
  expect(await fetchNow()).toEqual({ result: 'unchanged' });
  expect(await activeVersion()).toBe(version);
  expect(await files()).toEqual([]);
}
const lastError = async () =>
  (await app.db.query(`SELECT last_error FROM source_list_fetches WHERE source_type = 'passport'`)).rows[0]
    ?.last_error;

beforeEach(() => {
  requests.length = 0;
});

describe('the daily fetch of SOURCE_PASSPORT_LIST_URL', () => {
  it('downloads a changed list, imports it, and asks conditionally after that', async () => {
    const v1 = bzip2(passportListCsv(['0304012345']));
    answer = () => ({
      status: 200,
      headers: {
        etag: '"v1"',
        'last-modified': 'Mon, 01 Jun 2026 00:00:00 GMT',
        'content-type': 'application/x-bzip2',
      },
      body: v1,
    });
    await fetchAndImport();
    expect(await listed('0304012345')).toBe(true);
    const version = await activeVersion();

    // The server says 304 to the validators it gave: nothing is downloaded or queued.
    answer = (request) =>
      request.headers['if-none-match'] === '"v1"' ? { status: 304 } : { status: 200, body: v1 };
    await expectUnchanged();
    expect(requests.at(-1)).toMatchObject({
      'if-none-match': '"v1"',
      'if-modified-since': 'Mon, 01 Jun 2026 00:00:00 GMT',
    });

    // A new file: a new version.
    answer = () => ({ status: 200, headers: { etag: '"v2"' }, body: bzip2(passportListCsv(['4501000001'])) });
    await fetchAndImport();
    expect(await activeVersion()).toBe(version! + 1);
    expect(await listed('4501000001')).toBe(true);
    expect(await listed('0304012345')).toBe(false);
  });

  it('compares Content-Length when the server gives no validators, before reading the body', async () => {
    const body = bzip2(passportListCsv(['1111000001']));
    answer = () => ({ status: 200, headers: { 'content-length': String(body.length) }, body });
    await fetchAndImport();
    await expectUnchanged();
  });

  it('takes the same Last-Modified as unchanged when the server ignores If-Modified-Since (no ETag)', async () => {
    const body = bzip2(passportListCsv(['2222000001']));
    const lastModified = 'Tue, 02 Jun 2026 00:00:00 GMT';
    // A server that answers every GET in full, whatever the request's validators say.
    answer = () => ({ status: 200, headers: { 'last-modified': lastModified }, body });
    await fetchAndImport();
    await expectUnchanged();
    expect(requests.at(-1)).toMatchObject({ 'if-modified-since': lastModified });
  });

  it('gives up a download that outlives SOURCE_PASSPORT_LIST_TIMEOUT_MS: failed in Russian, nothing on disk', async () => {
    const version = await activeVersion();
    const body = bzip2(passportListCsv(['3333000001']));
    const release = answerInTwoParts(body, '"stalled"', 10, false);
    try {
      const outcome = await fetchPassportList({
        db: app.db,
        queue: app.queue,
        config: { ...config, passportListTimeoutMs: 500 },
      });
      expect(outcome).toEqual({
        result: 'failed',
        reason: 'Перечень не скачан: Нет ответа за отведённое время',
      });
    } finally {
      release();
    }
    expect(await lastError()).toBe('Перечень не скачан: Нет ответа за отведённое время');
    const { rows } = await app.db.query(
      `SELECT status, failure FROM source_imports WHERE source_type = 'passport' ORDER BY version DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({
      status: 'failed',
      failure: 'Перечень не скачан: Нет ответа за отведённое время',
    });
    expect(await activeVersion()).toBe(version);
    expect(await files()).toEqual([]);
  });

  it('refuses an HTML page, a 404 and a redirect in Russian: the active version unchanged, nothing on disk', async () => {
    const version = await activeVersion();
    const cases: [Answer, string][] = [
      [
        {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: '<html>Сайт на обслуживании</html>',
        },
        'По адресу перечня пришла страница HTML, а не файл перечня',
      ],
      [{ status: 404, body: 'not found' }, 'Адрес перечня ответил ошибкой 404'],
      [{ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }, 'перенаправляет (302)'],
      [
        { status: 200, headers: { etag: '"x"' }, body: 'PASSP_SERIES;PASSP_NUMBER;X\n' },
        'Файл по адресу перечня не принят',
      ],
    ];
    for (const [reply, reason] of cases) {
      answer = () => reply;
      const outcome = await fetchNow();
      expect(outcome.result).toBe('failed');
      expect((outcome as { reason: string }).reason).toContain(reason);
      expect(await lastError()).toContain(reason);
      expect(await activeVersion()).toBe(version);
      expect(await files()).toEqual([]);
    }
  });

  it('shows the download on the sources screen: phase, bytes downloaded of the total, then queued', async () => {
    const user = await createSignedInUser(app, { role: 'viewer' });
    const body = bzip2(passportListCsv(Array.from({ length: 3000 }, (_, i) => String(7700000000 + i * 7))));
    const half = Math.floor(body.length / 2);
    const release = answerInTwoParts(body, '"slow"', half, true);
    const fetching = fetchNow();
    try {
      await expect
        .poll(async () => (await sourcesScreen(user.token)).importing, { timeout: 10_000 })
        .toMatchObject({ phase: 'downloading', bytesRead: half, bytesTotal: body.length, rowsRead: 0 });
      // A second look at the address meanwhile does not start another download.
      expect(await fetchNow()).toEqual({ result: 'busy' });
    } finally {
      release();
    }
    const outcome = await fetching;
    expect(outcome.result).toBe('queued');
    expect((await sourcesScreen(user.token)).importing).toMatchObject({
      phase: 'queued',
      bytesRead: 0,
      bytesTotal: body.length,
    });
    await runSourceImport({
      db: app.db,
      config,
      importId: (outcome as { importId: string }).importId,
      lastAttempt: true,
    });
    expect((await sourcesScreen(user.token)).importing).toBeNull();
    expect(await listed('7700000007')).toBe(true);
  });

  it('a download a killed process left behind is failed in Russian by the next look, its file deleted', async () => {
    const version = await activeVersion();
    const stale = randomUUID();
    const stalePath = path.join(dataDir, 'source-imports', stale);
    await mkdir(path.dirname(stalePath), { recursive: true });
    await writeFile(stalePath, 'PASSP_SERIES,PASSP_NUMBER\n1234,');
    await withTransaction(app.db, (tx) =>
      createListImport(tx, {
        importId: stale,
        filePath: stalePath,
        fileName: 'list_of_expired_passports.csv.bz2',
        bytes: 1000,
        createdBy: null,
        phase: 'downloading',
      }),
    );
    answer = () => ({ status: 304 });
    expect(await fetchNow()).toEqual({ result: 'unchanged' });
    const { rows } = await app.db.query(`SELECT status, failure FROM source_imports WHERE id = $1`, [stale]);
    expect(rows[0]).toEqual({
      status: 'failed',
      failure: expect.stringContaining('Скачивание перечня прервано остановкой процесса'),
    });
    expect(await files()).toEqual([]);
    expect(await activeVersion()).toBe(version);
  });
});
