import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { QueryResultRow } from 'pg';
import { afterAll, expect, it } from 'vitest';
import { rollupsDifferingFromRecounts } from '../db/testing/rollup-recounts.ts';
import { bearer, buildTestApp, signIn } from '../testing/test-app.ts';
import {
  DEMO_HISTORY_DAYS,
  DEMO_LAPSE_DAYS_LEFT,
  DEMO_REJECTION_REASON,
  DEMO_RULE_NAME,
  DEMO_SOURCE_RULE_NAME,
} from './demo-history.ts';
import { DEMO_ACCOUNTS, DEMO_ORGANISATION, seedDemo } from './demo-seed.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-demo-history-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({ config: { dataDir } });
const history = { config, queue: app.queue, mailer: app.mailer, log: app.log };

const DAY_MS = 24 * 60 * 60 * 1000;
/** Whole days between a stamp and now. */
const ageInDays = (stamp: Date) => Math.round((Date.now() - stamp.getTime()) / DAY_MS);

/** Row counts of every table the history writes to, for «a second start adds nothing». */
async function counts(): Promise<Record<string, number>> {
  const tables = [
    'check_runs',
    'monitoring_events',
    'monitoring_items',
    'uploads',
    'upload_errors',
    'pledges',
    'pledge_events',
    'pledge_packages',
    'notification_rules',
    'notification_deliveries',
    'source_imports',
    'audit_log',
  ];
  const result: Record<string, number> = {};
  for (const table of tables) {
    result[table] = (await app.db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  }
  return result;
}

it('gives the demo a month of history made by the services, once', { timeout: 300_000 }, async () => {
  const first = await seedDemo(app.db, history);
  expect(first.created).toBe(true);
  expect(first.historySeconds).toBeGreaterThan(0);
  const organisationId = (
    await app.db.query<{ id: string }>('SELECT id FROM organisations WHERE name = $1', [DEMO_ORGANISATION])
  ).rows[0]!.id;
  const q = async <T extends QueryResultRow>(sql: string) =>
    (await app.db.query<T>(sql, [organisationId])).rows;

  // Two completed regular runs, a month and two days ago, each with its events; the second finds
  // changes (before → after) in the updated datasets.
  const runs = await q<{ id: string; trigger: string; status: string; created_at: Date; finished_at: Date }>(
    `SELECT id, trigger, status, created_at, finished_at FROM check_runs
      WHERE organisation_id = $1 AND trigger <> 'pledge_registered' ORDER BY created_at`,
  );
  expect(runs.map((run) => [run.trigger, run.status, ageInDays(run.created_at)])).toEqual([
    ['manual', 'completed', DEMO_HISTORY_DAYS.firstRun],
    ['scheduled', 'completed', DEMO_HISTORY_DAYS.secondRun],
  ]);
  const events = await q<{ run_id: string; n: number; changed: number; removed: number; days: number[] }>(
    `SELECT run_id, count(*)::int AS n,
            count(*) FILTER (WHERE before IS NOT NULL AND after IS NOT NULL)::int AS changed,
            count(*) FILTER (WHERE before IS NOT NULL AND after IS NULL)::int AS removed,
            array_agg(DISTINCT round(extract(epoch FROM now() - detected_at) / 86400)::int) AS days
       FROM monitoring_events WHERE organisation_id = $1 AND run_id IS NOT NULL GROUP BY run_id`,
  );
  const of = (runId: string) => events.find((row) => row.run_id === runId)!;
  expect(of(runs[0]!.id).n).toBeGreaterThan(100);
  expect(of(runs[0]!.id).days).toEqual([DEMO_HISTORY_DAYS.firstRun]);
  expect(of(runs[1]!.id).days).toEqual([DEMO_HISTORY_DAYS.secondRun]);
  expect(of(runs[1]!.id).changed + of(runs[1]!.id).removed).toBeGreaterThan(0);
  // The rollups the statistics read moved with the events: the first run's day holds its events.
  const eventDays = await q<{ age: number; n: number }>(
    `SELECT (now() AT TIME ZONE 'Europe/Moscow')::date - day AS age, sum(events)::int AS n
       FROM statistics_event_days WHERE organisation_id = $1 GROUP BY day HAVING sum(events) <> 0`,
  );
  expect(eventDays.find((row) => row.age === DEMO_HISTORY_DAYS.firstRun)?.n).toBe(of(runs[0]!.id).n);
  // Every rollup and counter equals its recount after the history (and its shifts).
  expect(await rollupsDifferingFromRecounts(app.db)).toEqual([]);

  // Pledges in every package state; the rejected one with its reason.
  const packages = await q<{ status: string; rejection_reason: string | null; created_at: Date }>(
    'SELECT status, rejection_reason, created_at FROM pledge_packages WHERE organisation_id = $1 ORDER BY created_at',
  );
  expect(packages.map((row) => row.status)).toEqual(['registered', 'rejected', 'sent', 'ready', 'draft']);
  expect(packages.find((row) => row.status === 'rejected')!.rejection_reason).toBe(DEMO_REJECTION_REASON);
  // Registration checked the package's vehicles again on its day, in one finished run.
  const rechecks = await q<{ status: string; created_at: Date; finished_at: Date }>(
    `SELECT status, created_at, finished_at FROM check_runs
      WHERE organisation_id = $1 AND trigger = 'pledge_registered'`,
  );
  expect(rechecks.map((run) => [run.status, ageInDays(run.created_at), ageInDays(run.finished_at)])).toEqual([
    ['completed', DEMO_HISTORY_DAYS.registeredPackage[3], DEMO_HISTORY_DAYS.registeredPackage[3]],
  ]);
  expect(packages.map((row) => ageInDays(row.created_at))).toEqual([
    DEMO_HISTORY_DAYS.registeredPackage[0],
    DEMO_HISTORY_DAYS.rejectedPackage[0],
    DEMO_HISTORY_DAYS.sentPackage[0],
    DEMO_HISTORY_DAYS.readyPackage[0],
    DEMO_HISTORY_DAYS.draftPackage,
  ]);

  // An upload that took four vehicles and refused three rows, each with its reason.
  const [upload] = await q<{ id: string; status: string; rows_accepted: number; rows_rejected: number }>(
    'SELECT id, status, rows_accepted, rows_rejected, created_at FROM uploads WHERE organisation_id = $1',
  );
  expect(upload).toMatchObject({ status: 'done_with_errors', rows_accepted: 4, rows_rejected: 3 });
  const uploadErrors = await app.db.query('SELECT message FROM upload_errors WHERE upload_id = $1', [
    upload!.id,
  ]);
  expect(uploadErrors.rowCount).toBeGreaterThanOrEqual(3);

  // The events rule has deliveries; the source rule one alert and one «refreshed» of one episode.
  const deliveries = await q<{ rule_name: string; kind: string; alert: string | null; age: number }>(
    `SELECT rule_name, kind, payload->>'kind' AS alert,
            round(extract(epoch FROM now() - created_at) / 86400)::int AS age
       FROM notification_deliveries WHERE organisation_id = $1 ORDER BY created_at`,
  );
  expect(deliveries.filter((row) => row.rule_name === DEMO_RULE_NAME).length).toBeGreaterThan(0);
  expect(
    deliveries.filter((row) => row.rule_name === DEMO_SOURCE_RULE_NAME).map((row) => [row.alert, row.age]),
  ).toEqual([
    ['stale', DEMO_HISTORY_DAYS.sourceOutage[0]],
    ['refreshed', DEMO_HISTORY_DAYS.sourceOutage[1]],
  ]);

  // The pledge whose term ends within 30 days, with its lapse event (delivered by the BMW rule).
  const lapse = await q<{ id: string; days_left: number }>(
    `SELECT id, (after->>'days_left')::int AS days_left FROM monitoring_events
      WHERE organisation_id = $1 AND event_type = 'pledge_term_lapse'`,
  );
  expect(lapse.map((row) => row.days_left)).toEqual([DEMO_LAPSE_DAYS_LEFT]);

  // Spread over the last 30 days, nothing in the future.
  const stamps = await q<{ days: number[] }>(
    `SELECT array_agg(DISTINCT round(extract(epoch FROM now() - at) / 86400)::int) AS days FROM (
       SELECT created_at AS at FROM check_runs WHERE organisation_id = $1
       UNION ALL SELECT created_at FROM uploads WHERE organisation_id = $1
       UNION ALL SELECT created_at FROM pledge_package_history
                  WHERE package_id IN (SELECT id FROM pledge_packages WHERE organisation_id = $1)
       UNION ALL SELECT created_at FROM notification_deliveries WHERE organisation_id = $1
       UNION ALL SELECT created_at FROM notification_rules WHERE organisation_id = $1) s`,
  );
  expect(Math.min(...stamps[0]!.days)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...stamps[0]!.days)).toBeLessThanOrEqual(30);
  expect(stamps[0]!.days.length).toBeGreaterThanOrEqual(15);

  // A newcomer's first screens: events and the registry are not empty.
  const token = await signIn(app, DEMO_ACCOUNTS[1].email, DEMO_ACCOUNTS[1].password);
  const get = async (url: string) =>
    (await app.inject({ method: 'GET', url, headers: bearer(token) })).json();
  expect((await get('/api/v1/monitoring/events/items?pageSize=1')).total).toBeGreaterThan(100);
  expect((await get('/api/v1/pledges/events?pageSize=1')).total).toBe(6);

  const before = await counts();
  expect(await seedDemo(app.db, history)).toEqual({ created: false, historySeconds: null });
  expect(await counts()).toEqual(before);
});
