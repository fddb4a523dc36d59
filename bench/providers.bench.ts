/**
 * `npm run bench -- providers`: a regular run over BENCH_PROVIDER_ITEMS VINs for one remote source
 * (`wanted`, the json-service protocol) served by a provider stand-in on loopback that answers after
 * BENCH_PROVIDER_LATENCY_MS, with SOURCE_WANTED_RATE_LIMIT = BENCH_PROVIDER_RATE and two worker
 * processes (the app serves the API only). Measured at the provider: the achieved rate against the
 * limit, the busiest second, identifiers asked twice within the TTL; at the API meanwhile, p99.
 * Then with a daily limit (BENCH_PROVIDER_DAILY_LIMIT, 30 % of the items by default): the run stops at
 * the limit, coverage as the sources screen shows it, and the next Moscow day (the budget's day and
 * the cached answers moved one day back, as the clock moving a day on would) continues with the rest.
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { authEndpoints } from '@pledgewatch/contract';
import type pg from 'pg';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createPool } from '../apps/server/src/db/pool.ts';
import { busiestSecond } from '../apps/server/src/modules/checks/sources/request-budget.ts';
import {
  createOrganisation,
  createUserAccount,
} from '../apps/server/src/modules/organisations/organisations.service.ts';
import { type BenchContext, percentile } from './harness.ts';
import { freePort } from './load.bench.ts';

const ITEMS = Number(process.env.BENCH_PROVIDER_ITEMS ?? 20_000);
const RATE = Number(process.env.BENCH_PROVIDER_RATE ?? 200);
const LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 200);
const DAILY_LIMIT = Number(process.env.BENCH_PROVIDER_DAILY_LIMIT ?? Math.round(ITEMS * 0.3));
const WORKERS = Number(process.env.BENCH_PROVIDER_WORKERS ?? 2);
/** The TTL of the source's answers: longer than the run, shorter than a day. */
const TTL_SECONDS = 6 * 3600;
const PASSWORD = 'bench-password';
const STAND_IN_NICE = -5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const repoRoot = path.join(import.meta.dirname, '..');

/**
 * The provider stand-in (provider-stand-in.child.ts, its own process). `collect` moves the arrivals
 * it noted since the last call into `arrivals`. A real provider notes arrivals on its own machine;
 * this one shares the 2 cores with the app, the workers and PostgreSQL, and notes an arrival when
 * its process next gets a core: a stand-in that waited 50 ms noted 50 ms of requests at once. It
 * runs at a higher OS priority (prioritise) so that the times it notes are the requests' arrivals
 * rather than its own waits.
 */
/**
 * Real-time scheduling (SCHED_FIFO, every thread of the stand-in) where the bench may set it: the
 * stand-in then runs the moment a request arrives, as a provider on its own machine would, instead
 * of when the scheduler next gives it one of the 2 cores. It does little work (200 requests/s), so
 * it takes next to nothing from the app it measures. Else nice STAND_IN_NICE, else as it is.
 */
function prioritise(pid: number): string {
  try {
    execFileSync('chrt', ['--all-tasks', '--fifo', '--pid', '10', String(pid)], { stdio: 'ignore' });
    return 'real-time (SCHED_FIFO 10)';
  } catch {
    try {
      os.setPriority(pid, STAND_IN_NICE);
      return `nice ${STAND_IN_NICE} (no right to real-time scheduling)`;
    } catch {
      return 'as the bench (no right to raise its priority)';
    }
  }
}

async function startProvider() {
  const arrivals: { at: number; identifier: string }[] = [];
  const child = fork(path.join(import.meta.dirname, 'provider-stand-in.child.ts'), [String(LATENCY_MS)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  console.log(`  stand-in scheduling: ${prioritise(child.pid!)}`);
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    collect: async () => {
      child.send({ type: 'take' });
      const [message] = (await once(child, 'message')) as [{ arrivals: typeof arrivals }];
      arrivals.push(...message.arrivals);
    },
    close: async () => {
      child.send({ type: 'close' });
      await Promise.race([once(child, 'exit'), sleep(5000)]);
      child.kill('SIGKILL');
    },
  };
}

function startProcess(
  script: string,
  env: Record<string, string>,
): { child: ChildProcess; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src', script)], {
    cwd: repoRoot,
    env: { ...process.env, DEMO_DATA: 'false', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exit = once(child, 'exit');
  return {
    child,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exit, sleep(20_000)]);
        child.kill('SIGKILL');
      }
    },
  };
}

/** The environment of the app and the workers: the `wanted` source at the stand-in, optionally a daily limit. */
function sourceEnv(
  setup: { databaseUrl: string; dataDir: string; providerUrl: string },
  dailyLimit?: number,
) {
  return {
    DATABASE_URL: setup.databaseUrl,
    DATA_DIR: setup.dataDir,
    SOURCE_WANTED_PROVIDER: 'json-service',
    SOURCE_WANTED_URL: setup.providerUrl,
    SOURCE_WANTED_RATE_LIMIT: String(RATE),
    SOURCE_WANTED_RETRIES: '2',
    SOURCE_WANTED_TIMEOUT_MS: '5000',
    SOURCE_WANTED_CACHE_TTL: String(TTL_SECONDS),
    SOURCE_WANTED_PRICE: '1.5',
    ...(dailyLimit === undefined ? {} : { SOURCE_WANTED_DAILY_LIMIT: String(dailyLimit) }),
    CHECK_BATCH_SIZE: process.env.BENCH_PROVIDER_BATCH_SIZE ?? '500',
    OUTBOUND_ALLOWED_RANGES: '127.0.0.0/8',
  } satisfies Record<string, string>;
}

interface StackSetup {
  databaseUrl: string;
  dataDir: string;
  providerUrl: string;
  email: string;
  /** Every started stack's stop, for the bench's cleanup. */
  stops: (() => Promise<void>)[];
}

interface Stack {
  base: string;
  authorization: string;
  stop: () => Promise<void>;
}

/** The app (API only) and the workers, started with the source's configuration. */
async function startStack(setup: StackSetup, dailyLimit?: number): Promise<Stack> {
  const port = await freePort();
  const app = startProcess('server.ts', {
    ...sourceEnv(setup, dailyLimit),
    HOST: '127.0.0.1',
    PORT: String(port),
    WORKERS: 'false',
  });
  const workers = Array.from({ length: WORKERS }, () =>
    startProcess('worker.ts', { ...sourceEnv(setup, dailyLimit), WORKERS: 'true' }),
  );
  const stop = async () => {
    await Promise.all([app.stop(), ...workers.map((worker) => worker.stop())]);
  };
  setup.stops.push(stop);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${base}${authEndpoints.buildInfo.path}`)
      .then((r) => r.ok)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) {
      throw new Error('the app did not start');
    }
    await sleep(250);
  }
  const login = await fetch(`${base}${authEndpoints.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: setup.email, password: PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  return { base, authorization: `Bearer ${token}`, stop };
}

/** Starts a run through the API and waits for its end, calling the API meanwhile; latencies out. */
async function runOnce(db: pg.Pool, stack: { base: string; authorization: string }) {
  const started = await fetch(`${stack.base}/api/v1/monitoring/check-runs`, {
    method: 'POST',
    headers: { authorization: stack.authorization },
  });
  if (started.status !== 202) {
    throw new Error(`run not started: ${started.status} ${await started.text()}`);
  }
  const { id } = (await started.json()) as { id: string };
  const latencies: number[] = [];
  let done = false;
  const callers = Array.from({ length: 4 }, async (_, n) => {
    const paths = ['/api/v1/monitoring/sources', '/api/v1/monitoring/items?page=1&pageSize=25'];
    while (!done) {
      const t0 = performance.now();
      const response = await fetch(`${stack.base}${paths[n % paths.length]}`, {
        headers: { authorization: stack.authorization },
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      await sleep(50);
    }
  });
  const t0 = performance.now();
  for (;;) {
    const { rows } = await db.query<{ status: string }>('SELECT status FROM check_runs WHERE id = $1', [id]);
    if (!['queued', 'running'].includes(rows[0]!.status)) {
      break;
    }
    await sleep(200);
  }
  done = true;
  await Promise.all(callers);
  return { seconds: (performance.now() - t0) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

async function coverageOf(stack: { base: string; authorization: string }) {
  const response = await fetch(`${stack.base}/api/v1/monitoring/sources`, {
    headers: { authorization: stack.authorization },
  });
  const { items } = (await response.json()) as {
    items: { type: string; coverage: number; requestsToday: number; itemsWaiting: number }[];
  };
  return items.find((item) => item.type === 'wanted')!;
}

/** The organisation, its admin and ITEMS VIN items; the admin's email out. */
async function seedPortfolio(db: pg.Pool): Promise<string> {
  const organisationId = await createOrganisation(db, 'Бенчмарк поставщиков');
  const email = `providers-${Date.now()}@bench.test`;
  await createUserAccount(db, {
    organisationId,
    email,
    fullName: 'Бенчмарк',
    role: 'admin',
    password: PASSWORD,
  });
  await db.query(
    `INSERT INTO monitoring_items (organisation_id, kind, identifier, origin)
     SELECT $1, 'vin', 'XTW' || lpad(n::text, 14, '0'), 'form' FROM generate_series(1, $2) n`,
    [organisationId, ITEMS],
  );
  await db.query('VACUUM ANALYZE monitoring_items');
  return email;
}

type StandIn = Pick<Awaited<ReturnType<typeof startProvider>>, 'arrivals' | 'collect'>;

/** 1. No daily limit: the rate the provider saw, and the API's latency meanwhile. */
async function measureRate(db: pg.Pool, setup: StackSetup, { arrivals, collect }: StandIn) {
  // The booked send times by the database's clock too (a bench-only trigger): the limit bounds those;
  // the provider sees them after each process's timer and its way to the socket.
  await db.query(`CREATE TABLE bench_admissions (sent_at timestamptz NOT NULL);
    CREATE FUNCTION bench_note_admission() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN INSERT INTO bench_admissions VALUES (NEW.recent_sends[cardinality(NEW.recent_sends)]); RETURN NULL; END $$;
    CREATE TRIGGER bench_admissions AFTER UPDATE ON source_rate_slots
      FOR EACH ROW WHEN (NEW.recent_sends IS DISTINCT FROM OLD.recent_sends)
      EXECUTE FUNCTION bench_note_admission()`);
  const stack = await startStack(setup);
  const first = await runOnce(db, stack);
  await collect();
  const { rows: admissions } = await db.query<{ at: number }>(
    'SELECT extract(epoch FROM sent_at)::float8 * 1000 AS at FROM bench_admissions',
  );
  await db.query(
    'DROP TRIGGER bench_admissions ON source_rate_slots; DROP FUNCTION bench_note_admission(); DROP TABLE bench_admissions',
  );
  const times = arrivals.map((a) => a.at);
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  const achieved = (times.length - 1) / span;
  const busiest = busiestSecond(times);
  const askedTwice = times.length - new Set(arrivals.map((a) => a.identifier)).size;
  const p99 = percentile(first.latencies, 99);
  console.log(
    `\nproviders: ${ITEMS.toLocaleString('en')} VIN items, limit ${RATE}/s, latency ${LATENCY_MS} ms, ${WORKERS} workers`,
  );
  console.log(
    `  run ${first.seconds.toFixed(1)} s; ${times.length} requests in ${span.toFixed(1)} s = ${achieved.toFixed(1)}/s ` +
      `(ratio ${(achieved / RATE).toFixed(3)}); busiest second ${busiest} (limit ${RATE}); asked twice ${askedTwice}; ` +
      `API p50 ${percentile(first.latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${first.latencies.length} calls`,
  );
  // Whole seconds from the first arrival: how steady the rate was, and where it fell short.
  const start = Math.min(...times);
  const perSecond = new Array(Math.ceil(span) || 1).fill(0) as number[];
  for (const at of times) {
    perSecond[Math.min(perSecond.length - 1, Math.floor((at - start) / 1000))]!++;
  }
  const sortedSeconds = perSecond.toSorted((a, b) => a - b);
  // Booked → arrived, the n-th booking paired with the n-th arrival (both in time order): how late the
  // processes sent, which is what puts more than the limit into one of the provider's seconds. Turns
  // a process could not send in time are booked but never arrive (given back and booked again): then
  // the pairing no longer holds, and only their number is shown.
  const booked = admissions.map((row) => row.at).toSorted((a, b) => a - b);
  const arrived = times.toSorted((a, b) => a - b);
  const missed = booked.length - arrived.length;
  const late = arrived.map((at, i) => at - booked[i]!).toSorted((a, b) => a - b);
  console.log(
    `  per second at the provider: p10 ${percentile(sortedSeconds, 10)}, p50 ${percentile(sortedSeconds, 50)}, max ${sortedSeconds.at(-1)}; ` +
      `${perSecond.filter((n) => n < RATE * 0.9).length} of ${perSecond.length} seconds under 90 % of the limit; ` +
      `first 5 s: ${perSecond.slice(0, 5).join(' ')}`,
  );
  console.log(
    `  booked (database clock): busiest second ${busiestSecond(booked)} of ${booked.length}; missed turns ${missed}` +
      (missed === 0
        ? `; booked → arrived p50 ${percentile(late, 50).toFixed(1)} ms, p99 ${percentile(late, 99).toFixed(1)} ms, max ${late.at(-1)?.toFixed(1)} ms`
        : ''),
  );
  await stack.stop();
  return { achieved, busiest, askedTwice, p99 };
}

/** 2. A daily limit: the run stops at it, and the next day continues with the rest. */
async function measureDailyLimit(db: pg.Pool, setup: StackSetup, { arrivals, collect }: StandIn) {
  await db.query(`DELETE FROM source_cache; DELETE FROM source_request_days`);
  arrivals.length = 0;
  const stack = await startStack(setup, DAILY_LIMIT);
  await runOnce(db, stack);
  await collect();
  const dayOne = arrivals.length;
  const coverage = await coverageOf(stack);
  console.log(
    `  daily limit ${DAILY_LIMIT}: day 1 asked ${dayOne}, requests today ${coverage.requestsToday}, coverage ${coverage.coverage}, waiting ${coverage.itemsWaiting}`,
  );
  // The next Moscow day, as the clock moving a day on would make it.
  await db.query(`UPDATE source_request_days SET day = day - 1`);
  await db.query(
    `UPDATE source_cache SET fetched_at = fetched_at - interval '1 day', expires_at = expires_at - interval '1 day'`,
  );
  await runOnce(db, stack);
  await collect();
  const dayTwoIds = arrivals.slice(dayOne).map((a) => a.identifier);
  const dayOneIds = new Set(arrivals.slice(0, dayOne).map((a) => a.identifier));
  const repeated = dayTwoIds.filter((identifier) => dayOneIds.has(identifier)).length;
  const next = await coverageOf(stack);
  console.log(
    `  day 2 asked ${dayTwoIds.length} (of them asked on day 1: ${repeated}), requests today ${next.requestsToday}, waiting ${next.itemsWaiting}`,
  );
  await stack.stop();
  return { coverage: coverage.coverage, dayTwoNew: dayTwoIds.length - repeated };
}

export async function benchProviders(context: BenchContext): Promise<void> {
  const db = createPool(context.databaseUrl, 4);
  await migrate(db);
  const provider = await startProvider();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-bench-providers-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    const email = await seedPortfolio(db);
    const setup: StackSetup = {
      databaseUrl: context.databaseUrl,
      dataDir,
      providerUrl: provider.url,
      email,
      stops,
    };
    const { achieved, busiest, askedTwice, p99 } = await measureRate(db, setup, provider);
    const { coverage, dayTwoNew } = await measureDailyLimit(db, setup, provider);
    console.log(
      `RESULT providers rate_ratio=${(achieved / RATE).toFixed(3)} busiest_second=${busiest} asked_twice=${askedTwice} ` +
        `coverage=${coverage} day2_new=${dayTwoNew} api_p99_ms=${p99.toFixed(1)}`,
    );
  } finally {
    for (const stop of stops) {
      await stop();
    }
    await provider.close();
    await db.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
