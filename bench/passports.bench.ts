import { execFile, execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createPool } from '../apps/server/src/db/pool.ts';
import { WORKER_CHECK_BATCH_CONCURRENCY } from '../apps/server/src/modules/checks/jobs/check-batch.job.ts';
import { systemBzip2Decoders } from '../apps/server/src/modules/checks/passport-list/decompress.ts';
import {
  BLOCK_OF,
  numberListed,
  REST_OF,
} from '../apps/server/src/modules/checks/passport-list/passport-list.queries.ts';
import {
  BATCH_ITEMS_CTE,
  scopeParams,
} from '../apps/server/src/modules/checks/runs/batch-matching.queries.ts';
import { createSourceAdapter } from '../apps/server/src/modules/checks/sources/source-registry.ts';
import { createOrganisation } from '../apps/server/src/modules/organisations/organisations.service.ts';
import { type BenchContext, percentile } from './harness.ts';

const ROWS = Number(process.env.BENCH_PASSPORT_ROWS ?? 100_000_000);
/** Monitored passports of the regular-run comparison. */
const ITEMS = Number(process.env.BENCH_PASSPORT_ITEMS ?? 1_000_000);
const MALFORMED_EVERY = 1000;
const BATCH = 10_000;
/** Rounds of the run-against-join comparison (odd: its figures are the medians). */
const RUN_ROUNDS = 5;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const s = (ms: number) => (ms / 1000).toFixed(1);

/**
 * The list's keys: about one passport in a hundred possible, as in the real list (over 10^8 of
 * 10^10), so a smaller run keeps the real list's density: keys in [0, ROWS × 100).
 */
const SPACE = Math.min(1e10, ROWS * 100);
let seed = 20240601;
const random = () => {
  // xorshift32: reproducible and fast enough for 10^8 rows.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const randomKey = () => String(Math.floor(random() * SPACE)).padStart(10, '0');

/**
 * The list in the published format (header, `SSSS,NNNNNN`, 0.1 % malformed rows) through Debian's
 * bzip2, and the same rows cleaned (one 10-digit key a line) for the COPY reference.
 */
async function writeFiles(bz2Path: string, cleanPath: string): Promise<void> {
  const bzip2 = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const compressed = pipeline(bzip2.stdout, createWriteStream(bz2Path));
  const clean = createWriteStream(cleanPath);
  const write = async (stream: NodeJS.WritableStream, text: string) => {
    if (!stream.write(text)) {
      await new Promise((resolve) => stream.once('drain', resolve));
    }
  };
  await write(bzip2.stdin, 'PASSP_SERIES,PASSP_NUMBER\n');
  let text = '';
  let keys = '';
  for (let row = 0; row < ROWS; row++) {
    const key = randomKey();
    if (row % MALFORMED_EVERY === MALFORMED_EVERY - 1) {
      text +=
        row % 3 === 0
          ? `${key.slice(0, 4)};${key.slice(4)}\n`
          : row % 3 === 1
            ? `${key.slice(0, 3)}A,${key.slice(4)}\n`
            : '\n';
    } else {
      text += `${key.slice(0, 4)},${key.slice(4)}\n`;
      keys += `${key}\n`;
    }
    if (text.length > 1 << 20) {
      await write(bzip2.stdin, text);
      await write(clean, keys);
      text = '';
      keys = '';
    }
  }
  await write(bzip2.stdin, text);
  bzip2.stdin.end();
  await new Promise<void>((resolve, reject) =>
    clean.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  await compressed;
}

/**
 * `npm run bench -- passports`: the MVD list of BENCH_PASSPORT_ROWS rows through the real import job
 * (decompress, parse, validate, load, index, switch) beside the reference measured in the same run:
 * COPY of the same rows, already decompressed and cleaned, into a bare bigint table, then its index.
 * Lookups (the source's own query) are timed during the import and after it, and a regular run's
 * match of BENCH_PASSPORT_ITEMS monitored passports, batch by batch as the run issues it, beside the
 * bare SQL join of the same items to the same version's table.
 */
/**
 * One import of the list through the job's path in its own process (passports-import.child.ts),
 * which tells its phases as they come (`start`, `loaded`, `indexed`, `switched`) to `onPhase`.
 */
async function importInChild(databaseUrl: string, file: string, onPhase?: (phase: string) => void) {
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=16',
      path.join(import.meta.dirname, 'passports-import.child.ts'),
      databaseUrl,
      file,
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  child.on('message', (message: { phase: string }) => onPhase?.(message.phase));
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) {
    throw new Error(`the import's process ended with ${code}`);
  }
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    phases: Record<string, number>;
    phasesAt: Record<string, number>;
    totalMs: number;
    peakRss: number;
    import: {
      status: string;
      records_total: number;
      rows_rejected: number;
      failure: string | null;
      storage_table: string;
    };
  };
  if (result.import.status !== 'active') {
    throw new Error(`import ${result.import.status}: ${result.import.failure}`);
  }
  return result;
}

type Probe = { kind: 'document'; documentType: 'passport_rf'; identifier: string };

/**
 * The import, with lookups in turn while it runs: the source's own query (`lookup`) and a check by a
 * source made for it (`freshCheck`: the active version read, then the lookup). Each lookup is also
 * put in the import's phase it fell in: loading (decompress, parse, COPY) or indexing (the version's
 * table grouped and keyed), so a slow one is pinned on its phase.
 */
async function importWhileProbing(
  runImport: (onPhase: (phase: string) => void) => ReturnType<typeof importInChild>,
  lookup: (probe: Probe) => Promise<unknown>,
  freshCheck: (probe: Probe) => Promise<unknown>,
  probes: string[],
) {
  const during: number[] = [];
  const duringAt: number[] = [];
  const duringFresh: number[] = [];
  let importing = true;
  let markStart: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStart = resolve;
  });
  const prober = (async () => {
    await started;
    let i = 0;
    while (importing) {
      const probe: Probe = {
        kind: 'document',
        documentType: 'passport_rf',
        identifier: probes[i++ % probes.length]!,
      };
      let t0 = performance.now();
      await lookup(probe);
      during.push(performance.now() - t0);
      duringAt.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
      t0 = performance.now();
      await freshCheck(probe);
      duringFresh.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const result = await runImport((phase) => {
    if (phase === 'start') {
      markStart();
    }
    if (phase === 'switched') {
      importing = false;
    }
  }).finally(() => {
    importing = false;
    markStart();
  });
  await prober;
  const { phasesAt } = result;
  const inPhase = (from: number, to: number) =>
    during.filter((_, i) => duringAt[i]! >= from && duringAt[i]! < to).sort((a, b) => a - b);
  // The five slowest lookups, each with its moment (ms from the start) and phase, to pin a slow one.
  const phaseAt = (at: number) =>
    at < phasesAt.loaded! ? 'loading' : at < phasesAt.indexed! ? 'indexing' : 'switching';
  const slowest = during
    .map((ms, i) => ({ ms, at: duringAt[i]! }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map(({ ms, at }) => `${ms.toFixed(1)} ms at ${at - phasesAt.start!} ms (${phaseAt(at)})`);
  return {
    result,
    during,
    duringFresh,
    slowest,
    duringLoading: inPhase(phasesAt.start!, phasesAt.loaded!),
    duringIndexing: inPhase(phasesAt.loaded!, phasesAt.indexed!),
  };
}

/**
 * The regular run's match against the bare join: BENCH_PASSPORT_ITEMS monitored passports of a new
 * organisation, matched batch by batch as a run matches them (one at a time as the app process runs
 * them, a core left to the API; three at a time as a worker process does), and joined to the same
 * version's table in one statement (in parallel as the planner likes, and in one process).
 */
async function runVersusJoin(db: pg.Pool, table: string, config: never) {
  const organisationId = await createOrganisation(db, `Бенчмарк паспортов ${Date.now()}`);
  await db.query(
    `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, origin)
     SELECT $1, 'document', 'passport_rf', lpad((floor(random() * $3::float8))::bigint::text, 10, '0'), 'form'
       FROM generate_series(1, $2) ON CONFLICT DO NOTHING`,
    [organisationId, ITEMS, SPACE],
  );
  // Vacuumed, as autovacuum leaves a table that runs read and never update (its pages all-visible).
  await db.query('VACUUM (ANALYZE) monitoring_items');
  // The run's batches: BATCH items each, by identifier, each range inclusive as a run plans it.
  const { rows: batches } = await db.query<{ first: string; last: string }>(
    `SELECT min(identifier) AS first, max(identifier) AS last
       FROM (SELECT identifier, (row_number() OVER (ORDER BY identifier) - 1) / $2 AS batch
               FROM monitoring_items WHERE organisation_id = $1) x
      GROUP BY batch ORDER BY batch`,
    [organisationId, BATCH],
  );
  // Each batch as a run matches it: the batch's items (BATCH_ITEMS_CTE) and the source's own SQL.
  const findings = (await createSourceAdapter('passport', { db, config }).batchFindings!())!;
  const matchBatch = async (batch: { first: string; last: string }) => {
    const scope = {
      organisationId,
      kind: 'document' as const,
      identifierFrom: batch.first,
      identifierTo: batch.last,
      kinds: ['vin', 'document'] as const,
      documentTypes: ['passport_rf'],
    };
    const { rows } = await db.query(
      `WITH ${BATCH_ITEMS_CTE} SELECT count(*)::int AS n FROM (${findings.sql(7)}) found`,
      [...scopeParams(scope), ...findings.params],
    );
    return rows[0].n as number;
  };
  // The bare join: one statement over every item, as the planner likes it (in parallel on this
  // machine's cores), and in one process as a run's batch is; its key found in the block as the
  // source finds it (numberListed), so the ratio is the run's own cost, not a slower membership test.
  const bareJoin = `SELECT count(*)::int AS n FROM monitoring_items i
       JOIN "${table}" l ON l.block = ${BLOCK_OF('i.identifier')} AND ${numberListed(REST_OF('i.identifier'), 'l.numbers')}
      WHERE i.organisation_id = $1`;
  const timed = async <T>(work: () => Promise<T>) => {
    const t0 = performance.now();
    const value = await work();
    return { ms: performance.now() - t0, value };
  };
  // The four in turn, RUN_ROUNDS times, each figure the median of its rounds: a single pass of
  // each varied by a third from pass to pass on a 2-core machine (2026-11-28).
  const rounds: { runMs: number; workerMs: number; joinMs: number; joinOneMs: number }[] = [];
  let runHits = 0;
  let joinHits = 0;
  for (let round = 0; round < RUN_ROUNDS; round++) {
    // The app process: one batch at a time (APP_CHECK_BATCH_CONCURRENCY), a core left to the API.
    const run = await timed(async () => {
      let hits = 0;
      for (const batch of batches) {
        hits += await matchBatch(batch);
      }
      return hits;
    });
    // A worker process (`npm run worker`): WORKER_CHECK_BATCH_CONCURRENCY batches at a time.
    const worker = await timed(async () => {
      let next = 0;
      let hits = 0;
      await Promise.all(
        Array.from({ length: WORKER_CHECK_BATCH_CONCURRENCY }, async () => {
          while (next < batches.length) {
            // Read after the await: `hits += await …` would add to the value read before it.
            const found = await matchBatch(batches[next++]!);
            hits += found;
          }
        }),
      );
      return hits;
    });
    const join = await timed(async () => (await db.query(bareJoin, [organisationId])).rows[0].n as number);
    const single = await db.connect();
    let joinOne: { ms: number; value: number };
    try {
      await single.query('SET max_parallel_workers_per_gather = 0');
      joinOne = await timed(async () => (await single.query(bareJoin, [organisationId])).rows[0].n as number);
      await single.query('RESET max_parallel_workers_per_gather');
    } finally {
      single.release();
    }
    if (worker.value !== run.value || joinOne.value !== join.value) {
      throw new Error(
        `the same match found ${run.value} one batch at a time, ${worker.value} as a worker, ${join.value} and ${joinOne.value} joined`,
      );
    }
    runHits = run.value;
    joinHits = join.value;
    rounds.push({ runMs: run.ms, workerMs: worker.ms, joinMs: join.ms, joinOneMs: joinOne.ms });
  }
  const median = (key: keyof (typeof rounds)[number]) =>
    percentile(
      rounds.map((round) => round[key]).sort((a, b) => a - b),
      50,
    );
  return {
    batches: batches.length,
    rounds,
    runMs: median('runMs'),
    workerMs: median('workerMs'),
    runHits,
    joinMs: median('joinMs'),
    joinOneMs: median('joinOneMs'),
    joinHits,
  };
}

export async function benchPassports({ databaseUrl }: BenchContext): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-bench-passports-'));
  const db = createPool(databaseUrl, 6);
  try {
    await migrate(db);
    const bz2 = path.join(dir, 'list_of_expired_passports.csv.bz2');
    const clean = path.join(dir, 'clean.txt');
    let t = performance.now();
    await writeFiles(bz2, clean);
    console.log(
      `\nPassport list: ${ROWS.toLocaleString('en')} rows (0.1 % malformed), ${mb((await stat(bz2)).size)} MB bz2 generated in ${s(performance.now() - t)} s`,
    );

    // The reference: COPY of the cleaned rows into a bare table, then its index.
    t = performance.now();
    await db.query('DROP TABLE IF EXISTS bench_passport_reference');
    await db.query('CREATE TABLE bench_passport_reference (key bigint NOT NULL)');
    const client = await db.connect();
    try {
      await pipeline(
        createReadStream(clean),
        client.query(copyFrom('COPY bench_passport_reference (key) FROM STDIN')),
      );
    } finally {
      client.release();
    }
    await db.query('CREATE INDEX bench_passport_reference_key ON bench_passport_reference (key)');
    const referenceMs = performance.now() - t;
    const referenceBytes = Number(
      (await db.query(`SELECT pg_total_relation_size('bench_passport_reference') AS size`)).rows[0].size,
    );
    await db.query('DROP TABLE bench_passport_reference');

    // The decompression alone (the import's decoder to nowhere): a floor of the import the reference
    // does not pay.
    const decoder = systemBzip2Decoders()[0] ?? 'bunzip2';
    t = performance.now();
    await promisify(execFile)('sh', ['-c', `${decoder} -dc '${bz2}' > /dev/null`]);
    const decompressMs = performance.now() - t;
    // The reference wrote gigabytes (its table, its index, their WAL): they reach the disk now, not
    // while the import's lookups are timed.
    await db.query('CHECKPOINT').catch(() => {});
    await promisify(execFile)('sync');

    // A first version to answer during the import (a small one, through the same job: the import's
    // cost is the new one's), holding every tenth probe so that lookups find some.
    const config = { remoteSources: {} } as never;
    const probes = Array.from({ length: 2000 }, randomKey);
    const firstFile = path.join(dir, 'first.csv.bz2');
    const firstRows = [
      ...probes.filter((_, i) => i % 10 === 0),
      ...Array.from({ length: 100_000 }, randomKey),
    ];
    await writeFile(
      firstFile,
      execFileSync('bzip2', ['-c'], {
        input: `PASSP_SERIES,PASSP_NUMBER\n${firstRows.map((key) => `${key.slice(0, 4)},${key.slice(4)}`).join('\n')}\n`,
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    await importInChild(databaseUrl, firstFile);
    const lookup = createSourceAdapter('passport', { db, config });
    const first = await lookup.check({
      kind: 'document',
      documentType: 'passport_rf',
      identifier: probes[0]!,
    });
    if (first.status !== 'ok' || first.findings.length !== 1) {
      throw new Error(`the first version does not answer: ${JSON.stringify(first)}`);
    }
    const importFile = path.join(dir, 'import.csv.bz2');
    await link(bz2, importFile);
    // During the import, in turn: the source's own query (the lookup: one source, whose active version
    // is read once), and a check by a source made for it (as a one-time check makes one: the active
    // version read, then the lookup).
    const { result, during, duringFresh, slowest, duringLoading, duringIndexing } = await importWhileProbing(
      (onPhase) => importInChild(databaseUrl, importFile, onPhase),
      (probe) => lookup.check(probe),
      (probe) => createSourceAdapter('passport', { db, config }).check(probe),
      probes,
    );
    const table = result.import.storage_table;
    const diskBytes = Number(
      (await db.query('SELECT pg_total_relation_size($1::regclass) AS size', [table])).rows[0].size,
    );

    // After the switch: a source that reads the new active version.
    const lookupAfter = createSourceAdapter('passport', { db, config });
    const after: number[] = [];
    for (const key of probes) {
      const t0 = performance.now();
      await lookupAfter.check({ kind: 'document', documentType: 'passport_rf', identifier: key });
      after.push(performance.now() - t0);
    }
    during.sort((a, b) => a - b);
    duringFresh.sort((a, b) => a - b);
    after.sort((a, b) => a - b);

    const run = await runVersusJoin(db, table, config);

    console.log(`import phases (ms from the start): ${JSON.stringify(result.phases)}`);
    console.log(`slowest lookups during the import: ${slowest.join(', ')}`);
    console.log(
      `import ${s(result.totalMs)} s (${result.import.records_total.toLocaleString('en')} passports, ${result.import.rows_rejected.toLocaleString('en')} rows rejected), reference COPY + index ${s(referenceMs)} s, ${decoder} alone ${s(decompressMs)} s`,
    );
    console.log(
      `disk: list ${mb(diskBytes)} MB (${(((diskBytes / ROWS) * 1e8) / 1024 ** 3).toFixed(2)} GB per 100 M rows), bigint table + index ${mb(referenceBytes)} MB (${(((referenceBytes / ROWS) * 1e8) / 1024 ** 3).toFixed(2)} GB per 100 M rows)`,
    );
    console.log(
      `lookup p50/p99 during the import ${percentile(during, 50).toFixed(2)}/${percentile(during, 99).toFixed(2)} ms (${during.length}), after ${percentile(after, 50).toFixed(2)}/${percentile(after, 99).toFixed(2)} ms; ` +
        `while loading p99 ${percentile(duringLoading, 99).toFixed(2)} ms (${duringLoading.length}), while indexing p99 ${percentile(duringIndexing, 99).toFixed(2)} ms (${duringIndexing.length}); ` +
        `a check by a new source (active version read, then the lookup) during the import p95/p99 ${percentile(duringFresh, 95).toFixed(2)}/${percentile(duringFresh, 99).toFixed(2)} ms`,
    );
    console.log(
      `regular run's match of ${ITEMS.toLocaleString('en')} passports in ${run.batches} batches ${s(run.runMs)} s one at a time as the app runs them (${run.runHits} listed), ${s(run.workerMs)} s ${WORKER_CHECK_BATCH_CONCURRENCY} at a time as a worker does; bare join ${s(run.joinMs)} s (${run.joinHits}), in one process ${s(run.joinOneMs)} s (medians of ${RUN_ROUNDS} rounds; run / worker / join / join in one process, s: ${run.rounds.map((round) => [round.runMs, round.workerMs, round.joinMs, round.joinOneMs].map(s).join(' / ')).join('; ')})`,
    );
    console.log(
      `RESULT passports rows=${ROWS} import_s=${s(result.totalMs)} reference_s=${s(referenceMs)} ratio=${(result.totalMs / referenceMs).toFixed(2)} decoder=${decoder} decode_s=${s(decompressMs)} disk_mb=${mb(diskBytes)} reference_disk_mb=${mb(referenceBytes)} rss_mb=${mb(result.peakRss)} lookup_p99_ms=${Math.max(percentile(during, 99), percentile(after, 99)).toFixed(2)} lookup_p99_during_ms=${percentile(during, 99).toFixed(2)} check_p95_during_ms=${percentile(duringFresh, 95).toFixed(2)} run_s=${s(run.runMs)} join_s=${s(run.joinMs)} run_ratio=${(run.runMs / run.joinMs).toFixed(2)} join_one_process_s=${s(run.joinOneMs)} run_ratio_one_process=${(run.runMs / run.joinOneMs).toFixed(2)} run_worker_s=${s(run.workerMs)} run_ratio_worker=${(run.workerMs / run.joinMs).toFixed(2)}`,
    );
  } finally {
    await db.end();
    await rm(dir, { recursive: true, force: true });
  }
}
