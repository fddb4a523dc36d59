/**
 * The fault suite's tools (`npm run test:faults`): a real PostgreSQL the test can stop and start, real
 * app and worker processes it can SIGKILL, and a small HTTP client that talks to them as the web app does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { type EmbeddedDatabase, findFreePort, startEmbeddedPostgres } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { createBoss, createJobQueue, registerJobs } from '../jobs/job-registry.ts';
import { createOrganisation, createUserAccount } from '../modules/organisations/organisations.service.ts';
import { faultsSummaryFile } from './faults-setup.ts';
import { databaseUrl, withAdminClient } from './test-database.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch(() => {});
  }
});

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pledgewatch-faults-${prefix}-`));
  // When run as root, PostgreSQL runs as `postgres`, which must enter the folder.
  await chmod(dir, 0o755);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A PostgreSQL 18 server of the test's own, on a fixed port, that the test stops and starts. */
export interface FaultPostgres {
  adminUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** A fresh migrated database with the job queues created; returns its URL. */
  createDatabase(name: string): Promise<string>;
}

export async function startFaultPostgres(): Promise<FaultPostgres> {
  const dataDir = await tempDir('pg');
  const port = await findFreePort();
  let server: EmbeddedDatabase | undefined = await startEmbeddedPostgres({ dataDir, port });
  const adminUrl = databaseUrl(server.connectionString, 'postgres');
  cleanups.push(async () => server?.stop());
  return {
    adminUrl,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server = await startEmbeddedPostgres({ dataDir, port });
    },
    async createDatabase(name) {
      await withAdminClient(adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${name}`);
      });
      const url = databaseUrl(adminUrl, name);
      const pool = createPool(url, 2);
      await migrate(pool);
      const boss = createBoss(url, { schedule: false });
      boss.on('error', () => {});
      await boss.start();
      await registerJobs(boss, { queue: createJobQueue(boss) } as never, { work: false });
      await boss.stop({ graceful: false });
      await pool.end();
      return url;
    },
  };
}

/** An app or worker OS process: `node apps/server/src/server.ts` or `worker.ts` with the given env. */
export interface NodeProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnNode(
  script: 'server' | 'worker' | 'cli',
  env: Record<string, string>,
  args: string[] = [],
): NodeProcess {
  const child = spawn(nodeBinary, [path.join(repoRoot, `apps/server/src/${script}.ts`), ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      // The supervisor looks for dead workers' jobs every 2 s instead of every minute.
      JOBS_SUPERVISE_SECONDS: '2',
      // The SSRF guard (when present) refuses loopback webhooks unless allowed: the receivers are local.
      OUTBOUND_ALLOWED_RANGES: '127.0.0.0/8',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
  };
  cleanups.push(() => kill('SIGKILL'));
  return { child, output: () => output, exited, kill };
}

/**
 * How long an app may take to answer after its start: migrations, and with DEMO_DATA the demo's month
 * of history (15 s on a quiet 2-core machine, over a minute beside other test runs).
 */
const APP_START_TIMEOUT_MS = 180_000;

/** Starts the app process and waits until it answers HTTP. */
export async function startApp(env: Record<string, string>): Promise<NodeProcess & { url: string }> {
  const port = env.PORT ?? String(await findFreePort());
  const app = spawnNode('server', { HOST: '127.0.0.1', ...env, PORT: port });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + APP_START_TIMEOUT_MS;
  for (;;) {
    if (app.child.exitCode !== null) {
      throw new Error(`the app exited at start:\n${app.output()}`);
    }
    const ready = await fetch(`${url}/api/v1/build`).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ready) {
      return { ...app, url };
    }
    if (Date.now() > deadline) {
      throw new Error(`the app did not start in ${APP_START_TIMEOUT_MS / 1000} s:\n${app.output()}`);
    }
    await sleep(200);
  }
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** The API as the web app calls it: JSON, bearer token, the server's status and body. */
export class ApiClient {
  baseUrl: string;
  token = '';

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async signIn(email: string, password: string): Promise<void> {
    const response = await fetch(`${this.baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
    });
    if (response.status !== 200) {
      throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    }
    this.token = ((await response.json()) as { access_token: string }).access_token;
  }

  async request(
    method: string,
    url: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; raw?: RequestInit['body'] } = {},
  ): Promise<ApiResponse> {
    const response = await fetch(`${this.baseUrl}/api/v1${url}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extra.headers,
      },
      body: extra.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body ?? {});

  /** A multipart upload with one `file` field. */
  upload(url: string, fileName: string, content: Buffer | string): Promise<ApiResponse> {
    const form = new FormData();
    form.append('file', new Blob([content]), fileName);
    return this.request('POST', url, undefined, { raw: form });
  }
}

let counter = 0;

/**
 * A pool of the test's own on a fault database. The tests stop that PostgreSQL under it on purpose
 * (and at the end): an idle client's «terminating connection» is expected, not an uncaught error.
 */
export function faultPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {});
  return pool;
}

/** An organisation with users of the given roles, written straight to the database. */
export async function seedOrganisation(
  url: string,
  roles: { role: 'admin' | 'analyst'; isStaff?: boolean }[],
): Promise<{ organisationId: string; users: { email: string; password: string; id: string }[] }> {
  const pool = faultPool(url, 1);
  try {
    const organisationId = await createOrganisation(pool, `Организация ${++counter}-${Date.now()}`);
    const users = [];
    for (const { role, isStaff } of roles) {
      const email = `${role}-${++counter}-${Date.now().toString(36)}@faults.test`;
      const password = 'correct horse battery staple';
      const id = await createUserAccount(pool, {
        organisationId,
        email,
        fullName: 'Тестовый Пользователь',
        role,
        password,
        isStaff,
      });
      users.push({ email, password, id });
    }
    return { organisationId, users };
  } finally {
    await pool.end();
  }
}

/** Polls until `check` returns a value (not undefined) or the time is up. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(intervalMs);
  }
}

/** One line of the suite's summary, printed as it happens and again at the end of the run. */
export function report(line: string): void {
  console.log(`[faults] ${line}`);
  appendFileSync(faultsSummaryFile(process.ppid), `${line}\n`);
}

/** What a worker-kill test works with, filled in before its first test. */
export interface WorkerRig {
  url: string;
  db: pg.Pool;
  dataDir: string;
  app: NodeProcess & { url: string };
  /** A worker process on the rig's database and data directory, for the test to kill. */
  startWorker(): NodeProcess;
  /** A client signed in as that user. */
  client(email: string, password: string): Promise<ApiClient>;
  /**
   * Lets a worker of its own load every dataset imported so far (imports are jobs, and the rig's app
   * runs none), then stops it: a test's run then reads the data it set up, not a half-loaded version.
   */
  importsSettled(): Promise<void>;
}

/**
 * A database of the file's own, a data directory and an app that takes requests only: the work is
 * done by the worker processes the tests start and kill. Registers its beforeAll and afterAll.
 */
export function useWorkerRig(database: string, checkBatchSize: number): WorkerRig {
  const env = () => ({
    DATABASE_URL: rig.url,
    DATA_DIR: rig.dataDir,
    CHECK_BATCH_SIZE: String(checkBatchSize),
  });
  const rig = {
    startWorker: () => spawnNode('worker', env()),
    async client(email: string, password: string) {
      const api = new ApiClient(rig.app.url);
      await api.signIn(email, password);
      return api;
    },
    async importsSettled() {
      const worker = spawnNode('worker', env());
      try {
        const failed = await waitFor(
          'the dataset imports to settle',
          async () => {
            const { rows } = await rig.db.query<{ importing: number; failed: string[] }>(
              `SELECT count(*) FILTER (WHERE status = 'importing')::int AS importing,
                      coalesce(array_agg(source_type || ': ' || coalesce(failure::text, ''))
                        FILTER (WHERE status = 'failed'), '{}') AS failed
                 FROM source_imports`,
            );
            return rows[0]!.importing === 0 ? rows[0]!.failed : undefined;
          },
          180_000,
          200,
        );
        expect(failed, 'dataset imports that failed').toEqual([]);
      } finally {
        await worker.kill('SIGTERM');
      }
    },
  } as WorkerRig;
  beforeAll(async () => {
    const postgres = await startFaultPostgres();
    rig.url = await postgres.createDatabase(database);
    rig.db = faultPool(rig.url, 3);
    rig.dataDir = await tempDir('data');
    rig.app = await startApp({ ...env(), WORKERS: 'false' });
  });
  afterAll(async () => {
    await rig.app?.kill('SIGTERM');
    await rig.db?.end();
  });
  return rig;
}

/** Uploads a dataset source's records through the API, as staff do (202: the workers import it). */
export async function importDataset(api: ApiClient, type: string, records: Record<string, unknown>[]) {
  const response = await api.upload(
    `/monitoring/sources/${type}/imports`,
    `${type}.json`,
    JSON.stringify(records),
  );
  expect(response.status, response.text).toBe(202);
}

/** Puts VINs on monitoring for the organisation straight in the table (faster than an upload). */
export async function addVinItems(db: pg.Pool, organisationId: string, vins: string[]): Promise<void> {
  await db.query(
    `INSERT INTO monitoring_items (organisation_id, kind, identifier, origin)
     SELECT $1, 'vin', vin, 'form' FROM unnest($2::text[]) AS vin`,
    [organisationId, vins],
  );
}

/** Waits until the check run has ended (completed or failed), as its screen reads it. */
export function runToEnd(api: ApiClient, runId: string, timeoutMs = 180_000) {
  return waitFor(
    `check run ${runId} to finish`,
    async () => {
      const run = (await api.get(`/monitoring/check-runs/${runId}`)).body as { status: string };
      return ['completed', 'failed'].includes(run.status) ? run : undefined;
    },
    timeoutMs,
    500,
  );
}
