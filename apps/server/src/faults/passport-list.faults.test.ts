import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  type FaultPostgres,
  faultPool,
  type NodeProcess,
  report,
  seedOrganisation,
  spawnNode,
  startApp,
  startFaultPostgres,
  tempDir,
  waitFor,
} from '../testing/fault-harness.ts';

/**
 * kill -9 of the worker in the middle of loading a new version of the MVD passport list: the old
 * version answers every check meanwhile and after; a new worker imports the new version from its
 * file, and then only the new one's table is left.
 */
const ROWS = 1_500_000;
const KEPT = '0304012345';
const DROPPED = '7700000001';
const ADDED = '0101000007';

let postgres: FaultPostgres;
let url: string;
let db: pg.Pool;
let dataDir: string;
let app: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  postgres = await startFaultPostgres();
  url = await postgres.createDatabase('faults_passport_list');
  db = faultPool(url, 2);
  dataDir = await tempDir('data');
  app = await startApp({ DATABASE_URL: url, DATA_DIR: dataDir, WORKERS: 'false' });
});
afterAll(async () => {
  await app?.kill('SIGTERM');
  await db?.end();
});

const startWorker = (): NodeProcess => spawnNode('worker', { DATABASE_URL: url, DATA_DIR: dataDir });

/** The list as published: header, then `SSSS,NNNNNN` rows, bzip2-compressed by Debian's bzip2. */
function listFile(passports: string[], filler: number): Buffer {
  const lines = ['PASSP_SERIES,PASSP_NUMBER', ...passports.map((p) => `${p.slice(0, 4)},${p.slice(4)}`)];
  let seed = 12345;
  for (let i = 0; i < filler; i++) {
    seed = (seed * 48271) % 2147483647;
    // Series 9000–9999: never one of the passports checked below.
    lines.push(`${9000 + (seed % 1000)},${String(seed % 1_000_000).padStart(6, '0')}`);
  }
  return execFileSync('bzip2', ['-c'], { input: `${lines.join('\n')}\n`, maxBuffer: 256 * 1024 * 1024 });
}

async function listed(api: ApiClient, passport: string): Promise<boolean> {
  const check = await api.post('/monitoring/one-time-check', {
    documentType: 'passport_rf',
    documentNumber: passport,
  });
  expect(check.status, check.text).toBe(200);
  const source = (
    check.body as { sources: { type: string; status: string; findings: unknown[] }[] }
  ).sources.find((s) => s.type === 'passport')!;
  expect(source.status).toBe('ok');
  return source.findings.length > 0;
}

const imports = async () =>
  (
    await db.query<{ id: string; version: number; status: string; rows_read: string }>(
      `SELECT id, version, status, rows_read::text FROM source_imports WHERE source_type = 'passport' ORDER BY version`,
    )
  ).rows;

const listTables = async () =>
  (
    await db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'passport_list%' ORDER BY 1`,
    )
  ).rows.map((row) => row.relname);

describe('passport list import killed with SIGKILL', () => {
  it('mid-load: the old version keeps answering, a new worker imports the new one from its file', async () => {
    const staff = await seedOrganisation(url, [{ role: 'admin', isStaff: true }]);
    const api = new ApiClient(app.url);
    await api.signIn(staff.users[0]!.email, staff.users[0]!.password);

    let worker = startWorker();
    const first = await api.upload(
      '/monitoring/sources/passport/imports',
      'v1.csv.bz2',
      listFile([KEPT, DROPPED], 10),
    );
    expect(first.status, first.text).toBe(202);
    const v1 = (first.body as { id: string }).id;
    await waitFor('version 1 active', async () =>
      (await imports()).find((i) => i.id === v1 && i.status === 'active'),
    );

    const second = await api.upload(
      '/monitoring/sources/passport/imports',
      'v2.csv.bz2',
      listFile([KEPT, ADDED], ROWS),
    );
    expect(second.status, second.text).toBe(202);
    const v2 = (second.body as { id: string }).id;
    // Killed once rows are being loaded (progress is written every second).
    await waitFor(
      'version 2 loading',
      async () => (await imports()).find((i) => i.id === v2 && Number(i.rows_read) > 0),
      120_000,
      100,
    );
    await worker.kill('SIGKILL');
    report(`passport list: worker killed at ${(await imports()).find((i) => i.id === v2)!.rows_read} rows`);

    // The active version is the old one, whole: it answers as before.
    const during = await imports();
    expect(during.find((i) => i.id === v1)!.status).toBe('active');
    expect(during.find((i) => i.id === v2)!.status).toBe('importing');
    expect(await listed(api, KEPT)).toBe(true);
    expect(await listed(api, DROPPED)).toBe(true);
    expect(await listed(api, ADDED)).toBe(false);
    const sources = await api.get('/monitoring/sources');
    const passport = (sources.body as { items: { type: string; activeVersion: number }[] }).items.find(
      (s) => s.type === 'passport',
    )!;
    expect(passport.activeVersion).toBe(1);

    // A new worker: the queue hands it the dead worker's import, which runs again from its file.
    worker = startWorker();
    await waitFor(
      'version 2 active after the restart',
      async () => (await imports()).find((i) => i.id === v2 && i.status === 'active'),
      240_000,
      500,
    );
    expect(await listed(api, KEPT)).toBe(true);
    expect(await listed(api, ADDED)).toBe(true);
    expect(await listed(api, DROPPED)).toBe(false);
    expect((await imports()).find((i) => i.id === v1)!.status).toBe('superseded');
    // The old version's table goes after its grace; the killed attempt's load table is gone at once.
    await waitFor(
      'only the new version stored',
      async () => {
        const tables = await listTables();
        return tables.length === 1 ? tables : undefined;
      },
      60_000,
      500,
    );
    expect(await listTables()).toEqual([`passport_list_${v2.replaceAll('-', '')}`]);
    expect(await readdir(path.join(dataDir, 'source-imports'))).toEqual([]);
    await worker.kill('SIGTERM');
  }, 420_000);
});
