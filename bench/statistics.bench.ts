import type pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import {
  createOrganisation,
  createUserAccount,
} from '../apps/server/src/modules/organisations/organisations.service.ts';
import { type BenchContext, printTable, runLoad } from './harness.ts';

const ITEMS = Number(process.env.BENCH_STAT_ITEMS ?? 1_000_000);
/** A year of events: about two per item (5,500 a day). */
const EVENTS = Number(process.env.BENCH_STAT_EVENTS ?? ITEMS * 2);
const DELIVERIES = Number(process.env.BENCH_STAT_DELIVERIES ?? Math.round(EVENTS / 4));
const CHUNK = 250_000;

const VIN_TYPES = `ARRAY['wanted_added','restriction_added','ownership_changed','accident_recorded','pledge_registered_other']`;
const VIN_SOURCES = `ARRAY['wanted','restrictions','registration','accidents','pledges']`;
const DOC_TYPES = `ARRAY['bankruptcy_opened','enforcement_opened','passport_invalid']`;
const DOC_SOURCES = `ARRAY['bankruptcy','enforcement','passport']`;

const moscowDay = (daysAgo: number) =>
  new Date(Date.now() + 3 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

const SEEDED_NAME = 'Бенчмарк статистики';

async function seed(db: pg.Pool, organisationId: string, email: string): Promise<void> {
  const userId = await createUserAccount(db, {
    organisationId,
    email,
    fullName: 'Бенч',
    role: 'analyst',
    password: 'bench-password',
  });
  const t0 = performance.now();
  await db.query(
    `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, label, status, origin,
                                   created_at, updated_at, archived_at)
     SELECT $1, CASE WHEN g % 10 = 0 THEN 'document' ELSE 'vin' END,
            CASE WHEN g % 10 = 0 THEN 'passport_rf' END,
            CASE WHEN g % 10 = 0 THEN lpad(g::text, 10, '0') ELSE 'XTA' || lpad(g::text, 14, '0') END,
            (ARRAY['Lada Vesta','Kia Rio','Hyundai Solaris','Toyota Camry','Skoda Octavia'])[1 + g % 5],
            CASE WHEN g % 33 = 0 THEN 'archived' ELSE 'active' END, 'upload',
            now() - make_interval(secs => (g::float8 / $2) * 730 * 86400),
            now() - make_interval(secs => (g::float8 / $2) * 730 * 86400),
            CASE WHEN g % 33 = 0 THEN now() - make_interval(secs => (g::float8 / $2) * 365 * 86400) END
       FROM generate_series(1, $2::int) g`,
    [organisationId, ITEMS],
  );
  const itemsMs = performance.now() - t0;
  await db.query(
    `INSERT INTO check_runs (organisation_id, trigger, status, batch_size, items_total, items_done, batches_total,
                             batches_done, created_at, started_at, finished_at, created_by)
     SELECT $1, 'scheduled', 'completed', 1000, $2, $2, 1, 1, t, t, t + interval '20 minutes', $3
       FROM (SELECT now() - make_interval(days => d) AS t FROM generate_series(1, 365) d) x`,
    [organisationId, ITEMS, userId],
  );
  // The temp tables live on one connection: events are inserted through it.
  const client = await db.connect();
  const t1 = performance.now();
  try {
    await client.query(
      `CREATE TEMP TABLE bench_stat_items AS
         SELECT id, kind, row_number() OVER (ORDER BY id) AS rn FROM monitoring_items WHERE organisation_id = $1`,
      [organisationId],
    );
    await client.query('CREATE INDEX ON bench_stat_items (rn)');
    await client.query(
      `CREATE TEMP TABLE bench_stat_runs AS
         SELECT id, created_at, row_number() OVER (ORDER BY created_at) AS rn FROM check_runs WHERE organisation_id = $1`,
      [organisationId],
    );
    await client.query('CREATE INDEX ON bench_stat_runs (rn)');
    for (let start = 1; start <= EVENTS; start += CHUNK) {
      const end = Math.min(EVENTS, start + CHUNK - 1);
      // Each statement is one trigger call, as when a check batch inserts its events. The day is
      // g % 365, so the type is taken from g / 365 (every type on every day).
      await client.query(
        `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity,
                                        finding_key, detected_at, read_at)
         SELECT $1, i.id, r.id,
                CASE WHEN i.kind = 'vin' THEN (${VIN_SOURCES})[1 + (g / 365) % 5] ELSE (${DOC_SOURCES})[1 + (g / 365) % 3] END,
                CASE WHEN i.kind = 'vin' THEN (${VIN_TYPES})[1 + (g / 365) % 5] ELSE (${DOC_TYPES})[1 + (g / 365) % 3] END,
                (ARRAY['low','medium','high','critical'])[1 + g % 4], 'bench-' || g,
                r.created_at + make_interval(secs => (g % 1200)),
                CASE WHEN g % 4 <> 0 THEN r.created_at + interval '1 day' END
           FROM generate_series($2::int, $3::int) g
           JOIN bench_stat_items i ON i.rn = 1 + (g::bigint * 7919) % $4
           JOIN bench_stat_runs r ON r.rn = 1 + g % 365`,
        [organisationId, start, end, ITEMS],
      );
    }
  } finally {
    client.release(true);
  }
  const eventsMs = performance.now() - t1;
  await db.query(
    `INSERT INTO notification_deliveries (organisation_id, rule_name, method, recipient, kind, dedupe_key, status,
                                          max_attempts, attempts, created_at)
     SELECT $1::uuid, 'Бенч', 'email', 'bench@bench.ru', 'event', 'bench-' || $1::uuid::text || '-' || g,
            (ARRAY['sent','sent','sent','sent','sent','sent','failed','retrying'])[1 + g % 8], 3, 1,
            now() - make_interval(secs => (g::float8 / $2) * 365 * 86400)
       FROM generate_series(1, $2::int) g`,
    [organisationId, DELIVERIES],
  );
  await db.query(
    `INSERT INTO uploads (organisation_id, kind, file_name, status, rows_total, rows_processed, rows_accepted,
                          rows_rejected, created_at, updated_at)
     SELECT $1, 'items', 'bench-' || d || '.csv', 'done', 1000, 1000, 990, 10,
            now() - make_interval(days => d), now() - make_interval(days => d)
       FROM generate_series(1, 365) d`,
    [organisationId],
  );
  await db.query(
    `INSERT INTO one_time_checks (organisation_id, number, kind, identifier, status, findings_count, sources,
                                  created_by_name, duration_ms, created_at)
     SELECT $1, 'Б-' || g, 'vin', 'XTA' || lpad(g::text, 14, '0'), 'completed', 0, '[]', 'Бенч', 10,
            now() - make_interval(secs => g * 1577)
       FROM generate_series(1, 20000) g`,
    [organisationId],
  );
  await db.query('VACUUM ANALYZE monitoring_items');
  await db.query('VACUUM ANALYZE monitoring_events');
  await db.query('VACUUM ANALYZE notification_deliveries');
  await db.query('VACUUM ANALYZE statistics_event_days');
  await db.query('VACUUM ANALYZE statistics_delivery_days');
  await db.query('VACUUM ANALYZE statistics_label_event_days');
  await db.query('VACUUM ANALYZE statistics_label_item_days');
  await db.query('VACUUM ANALYZE statistics_labels');
  const rollupRows = (
    await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM statistics_event_days WHERE organisation_id = $1',
      [organisationId],
    )
  ).rows[0]!.n;
  console.log(
    `\nStatistics data: ${ITEMS} items (${(itemsMs / 1000).toFixed(1)} s), ${EVENTS} events in a year (${(eventsMs / 1000).toFixed(1)} s incl. the rollup trigger, ${rollupRows} rollup rows), ${DELIVERIES} deliveries`,
  );
}

/**
 * `POST /monitoring/statistics/data` on a year of data for a million items: 1,000,000 items added over
 * two years (3 % archived), a daily check run, 2,000,000 events over the last year, 500,000 deliveries,
 * uploads and one-time checks. Through HTTP on loopback, 4 concurrent clients.
 */
export async function benchStatistics({ databaseUrl, seconds }: BenchContext): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  const app = await buildApp({ config, connectionString: databaseUrl, logger: false, runWorkers: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const db = app.db;
  try {
    // BENCH_STAT_REUSE=1 with a DATABASE_URL keeps the seeded organisation for the next run.
    const reuse = process.env.BENCH_STAT_REUSE === '1';
    const existing = reuse
      ? (
          await db.query<{ id: string; email: string }>(
            `SELECT o.id, u.email FROM organisations o JOIN users u ON u.organisation_id = o.id
              WHERE o.name = $1 ORDER BY o.created_at DESC LIMIT 1`,
            [SEEDED_NAME],
          )
        ).rows[0]
      : undefined;
    const organisationId =
      existing?.id ?? (await createOrganisation(db, reuse ? SEEDED_NAME : `${SEEDED_NAME} ${Date.now()}`));
    const email = existing?.email ?? `statistics-${Date.now()}@bench.ru`;
    if (!existing) {
      await seed(db, organisationId, email);
    }

    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: email, password: 'bench-password' }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const call = (body: Record<string, unknown>) => async () => {
      const response = await fetch(`${base}/api/v1/monitoring/statistics/data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) {
        throw new Error(`statistics: ${response.status}`);
      }
      await response.arrayBuffer();
    };
    const today = moscowDay(0);
    const cases: [string, Record<string, unknown>][] = [
      ['30 days by day', { from: moscowDay(29), to: today, grouping: 'day' }],
      ['90 days by day', { from: moscowDay(89), to: today, grouping: 'day' }],
      ['365 days by day', { from: moscowDay(364), to: today, grouping: 'day' }],
      ['365 days by week', { from: moscowDay(364), to: today, grouping: 'week' }],
      ['365 days by month', { from: moscowDay(364), to: today, grouping: 'month' }],
      [
        '365 days, documents, 2 sources',
        {
          from: moscowDay(364),
          to: today,
          grouping: 'week',
          itemKind: 'document',
          sources: ['bankruptcy', 'passport'],
        },
      ],
      ['30 days, label filter', { from: moscowDay(29), to: today, grouping: 'day', label: 'camry' }],
      [
        '365 days, label filter by week, vins',
        {
          from: moscowDay(364),
          to: today,
          grouping: 'week',
          label: 'a',
          itemKind: 'vin',
        },
      ],
      ['365 days, label filter', { from: moscowDay(364), to: today, grouping: 'month', label: 'camry' }],
    ];
    const results = [];
    for (const [name, body] of cases) {
      await call(body)();
      results.push(await runLoad(name, call(body), { concurrency: 4, seconds }));
    }
    printTable('Statistics data (HTTP on loopback, 4 concurrent clients; target p95 ≤ 200 ms)', results);
    const slowest = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(
      `RESULT statistics items=${ITEMS} events=${EVENTS} cases=${results.length} p95_ms=${slowest.p95.toFixed(1)} slowest="${slowest.name}"`,
    );
  } finally {
    await app.close();
  }
}
