import type { DashboardResponse } from '@pledgewatch/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import {
  insertDelivery,
  insertEvent,
  insertItem,
  insertOneTimeCheck,
  insertRun,
} from '../statistics/testing/statistics-fixtures.ts';
import { countItemsByKindAndStatus, readDashboard } from './dashboard.queries.ts';

const { app } = await buildTestApp();

async function get<T>(user: TestUser, url: string): Promise<T> {
  const response = await app.inject({ method: 'GET', url, headers: bearer(user.token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const dashboard = (user: TestUser) => get<DashboardResponse>(user, '/api/v1/monitoring/dashboard');

let user: TestUser;
let runningRun: string;
beforeAll(async () => {
  user = await createSignedInUser(app);
  const org = user.organisationId;
  const vins = [];
  for (let i = 0; i < 4; i++) {
    vins.push(await insertItem(app.db, org));
  }
  await insertItem(app.db, org, { status: 'paused' });
  await insertItem(app.db, org, { archivedAt: '2026-01-01T00:00:00Z' });
  const document = await insertItem(app.db, org, { kind: 'document' });
  const oldRun = await insertRun(app.db, org, { createdAt: '2026-03-01T10:00:00Z', itemsDone: 7 });
  const event = (itemId: string, type: string, source: string, severity: string, read = false) =>
    insertEvent(app.db, {
      organisationId: org,
      itemId,
      runId: oldRun,
      type,
      source,
      severity,
      read,
      detectedAt: '2026-03-01T10:05:00Z',
    });
  await event(vins[0]!, 'pledge_registered_other', 'pledges', 'critical');
  await event(vins[1]!, 'pledge_registered_other', 'pledges', 'critical');
  await event(vins[2]!, 'pledge_registered_other', 'pledges', 'critical', true);
  await event(vins[0]!, 'wanted_added', 'wanted', 'critical');
  await event(vins[1]!, 'restriction_added', 'restrictions', 'high');
  await event(document, 'enforcement_opened', 'enforcement', 'high');
  await event(document, 'enforcement_closed', 'enforcement', 'low', true);
  runningRun = await insertRun(app.db, org, { status: 'running', itemsDone: 3 });
  await app.db.query('UPDATE check_runs SET items_total = 7, items_done = 3 WHERE id = $1', [runningRun]);
  await insertDelivery(app.db, org, { status: 'failed' });
  await insertDelivery(app.db, org, { status: 'failed', createdAt: '2026-01-01T00:00:00Z' });
  await insertDelivery(app.db, org, { status: 'sent' });
  for (let i = 0; i < 6; i++) {
    await insertOneTimeCheck(app.db, org, { createdAt: `2026-03-0${i + 1}T10:00:00Z`, findings: i });
  }
});

describe('GET /api/v1/monitoring/dashboard', () => {
  it('counts the portfolio, unread events, the last run, failed deliveries and recent checks', async () => {
    const result = await dashboard(user);
    expect(result.items).toEqual({
      monitored: 6,
      byKind: [
        { kind: 'vin', active: 4, paused: 1, archived: 1 },
        { kind: 'document', active: 1, paused: 0, archived: 0 },
      ],
    });
    expect(result.unreadEvents.total).toBe(5);
    expect(result.unreadEvents.byType).toEqual([
      { type: 'pledge_registered_other', severity: 'critical', count: 2 },
      { type: 'wanted_added', severity: 'critical', count: 1 },
      { type: 'restriction_added', severity: 'high', count: 1 },
      { type: 'enforcement_opened', severity: 'high', count: 1 },
    ]);
    expect(result.unreadEvents.bySeverity).toEqual([
      { severity: 'critical', count: 3 },
      { severity: 'high', count: 2 },
      { severity: 'medium', count: 0 },
      { severity: 'low', count: 0 },
    ]);
    expect(result.lastRun).toMatchObject({ id: runningRun, status: 'running', itemsTotal: 7, itemsDone: 3 });
    expect(result.deliveries).toMatchObject({ failedRecent: 1, failedTotal: 2 });
    expect(result.recentOneTimeChecks).toHaveLength(5);
    expect(result.recentOneTimeChecks.map((check) => check.findingsCount)).toEqual([5, 4, 3, 2, 1]);
  });

  it('every number equals the total of the list it links to', async () => {
    const result = await dashboard(user);
    for (const cell of result.unreadEvents.byType) {
      const list = await get<{ total: number }>(
        user,
        `/api/v1/monitoring/events/items?type=${cell.type}&severity=${cell.severity}&read=false`,
      );
      expect(list.total, `${cell.type}/${cell.severity}`).toBe(cell.count);
    }
    for (const cell of result.unreadEvents.bySeverity) {
      const list = await get<{ total: number }>(
        user,
        `/api/v1/monitoring/events/items?severity=${cell.severity}&read=false`,
      );
      expect(list.total).toBe(cell.count);
    }
    const all = await get<{ total: number; unread: number }>(
      user,
      '/api/v1/monitoring/events/items?read=false',
    );
    expect(all.total).toBe(result.unreadEvents.total);
    expect(all.unread).toBe(result.unreadEvents.total);
    for (const kind of result.items.byKind) {
      for (const status of ['active', 'paused', 'archived'] as const) {
        const list = await get<{ total: number }>(
          user,
          `/api/v1/monitoring/items?entity=${kind.kind}&status=${status}`,
        );
        expect(list.total, `${kind.kind}/${status}`).toBe(kind[status]);
      }
    }
    const failed = await get<{ total: number }>(
      user,
      '/api/v1/monitoring/notifications/deliveries?status=failed',
    );
    expect(failed.total).toBe(result.deliveries.failedTotal);
  });

  it('counts the portfolio from the counts table, without reading the items themselves', async () => {
    // A million-item portfolio must not be counted row by row on every visit of the home screen.
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      // Scans of the items by this backend so far (this transaction and not yet flushed earlier ones).
      const scans = async () =>
        (
          await client.query<{ n: number }>(
            `SELECT seq_scan + coalesce(idx_scan, 0) AS n FROM pg_stat_xact_user_tables
              WHERE relid = 'monitoring_items'::regclass`,
          )
        ).rows[0]!.n;
      const before = await scans();
      const counts = await countItemsByKindAndStatus(client, user.organisationId);
      expect((await scans()) - before).toBe(0);
      expect(counts.toSorted((a, b) => `${a.kind}${a.status}`.localeCompare(`${b.kind}${b.status}`))).toEqual(
        [
          { kind: 'document', status: 'active', n: 1 },
          { kind: 'vin', status: 'active', n: 4 },
          { kind: 'vin', status: 'archived', n: 1 },
          { kind: 'vin', status: 'paused', n: 1 },
        ],
      );
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('stays exact through many status changes and folds their count deltas', async () => {
    const owner = await createSignedInUser(app);
    const ids = [
      await insertItem(app.db, owner.organisationId),
      await insertItem(app.db, owner.organisationId),
      await insertItem(app.db, owner.organisationId, { kind: 'document' }),
    ];
    // 80 changes: each writes two delta rows, far past the folding threshold.
    for (let i = 0; i < 80; i++) {
      await app.db.query('UPDATE monitoring_items SET status = $2 WHERE id = $1', [
        ids[i % 2]!,
        i % 4 < 2 ? 'paused' : 'active',
      ]);
    }
    await app.db.query(`UPDATE monitoring_items SET status = 'archived' WHERE id = $1`, [ids[2]!]);
    const result = await dashboard(owner);
    expect(result.items).toEqual({
      monitored: 2,
      byKind: [
        { kind: 'vin', active: 2, paused: 0, archived: 0 },
        { kind: 'document', active: 0, paused: 0, archived: 1 },
      ],
    });
    const { rows } = await app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM monitoring_item_counts WHERE organisation_id = $1',
      [owner.organisationId],
    );
    expect(rows[0]!.n).toBeLessThanOrEqual(6);
    expect((await dashboard(owner)).items).toEqual(result.items);
  });

  it('shows a new organisation nothing of another one', async () => {
    const stranger = await createSignedInUser(app);
    const result = await dashboard(stranger);
    expect(result.items.monitored).toBe(0);
    expect(result.unreadEvents.total).toBe(0);
    expect(result.unreadEvents.byType).toEqual([]);
    expect(result.lastRun).toBeNull();
    expect(result.lastItemCheckAt).toBeNull();
    expect(result.deliveries).toMatchObject({ failedRecent: 0, failedTotal: 0 });
    expect(result.recentOneTimeChecks).toEqual([]);
  });

  it('tells when items were last checked even with no run in the log (demo data, imported items)', async () => {
    const owner = await createSignedInUser(app);
    await insertItem(app.db, owner.organisationId, { lastCheckedAt: '2026-04-10T08:00:00Z' });
    await insertItem(app.db, owner.organisationId, {
      kind: 'document',
      lastCheckedAt: '2026-04-12T09:30:00Z',
    });
    await insertItem(app.db, owner.organisationId, { lastCheckedAt: null });
    const result = await dashboard(owner);
    expect(result.lastRun).toBeNull();
    expect(result.lastItemCheckAt).toBe('2026-04-12T09:30:00.000Z');
  });

  it('needs a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/monitoring/dashboard' });
    expect(response.statusCode).toBe(401);
  });

  it('reads in one statement what the separate queries read: rows, order, timestamps to the millisecond', async () => {
    const owner = await createSignedInUser(app);
    const org = owner.organisationId;
    await insertItem(app.db, org);
    await insertItem(app.db, org, { kind: 'document', status: 'paused' });
    // Microseconds the driver cuts to milliseconds; equal instants ordered by id.
    for (const at of ['2026-03-01T10:00:00.123999Z', '2026-03-02T10:00:00.5Z', '2026-03-02T10:00:00.5Z']) {
      await insertOneTimeCheck(app.db, org, { createdAt: at });
    }
    const run = await insertRun(app.db, org, { createdAt: '2026-03-03T10:00:00.987654Z', status: 'running' });
    await insertDelivery(app.db, org, { status: 'failed', createdAt: new Date().toISOString() });
    await app.db.query(
      // Own stamps through the compatibility column (0030 records them per item).
      `UPDATE monitoring_items SET last_checked_at = '2026-03-04T10:00:00.000999Z' WHERE organisation_id = $1`,
      [org],
    );
    const since = new Date(Date.now() - 7 * 86_400_000);
    const read = await readDashboard(app.db, { organisationId: org, since, recentChecks: 2 });

    const direct = async <T>(sql: string, params: unknown[] = [org]) =>
      (await app.db.query<T & object>(sql, params)).rows;
    const byKey = (rows: { kind: string; status: string }[]) =>
      rows.toSorted((a, b) => `${a.kind}${a.status}`.localeCompare(`${b.kind}${b.status}`));
    expect(byKey(read.items)).toEqual(
      byKey(
        await direct(
          `SELECT kind, status, count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1 GROUP BY 1, 2`,
        ),
      ),
    );
    expect(read.lastRun).toEqual(
      (
        await direct(
          `SELECT id, trigger, status, items_total, items_done, events_created, created_at, started_at, finished_at
             FROM check_runs WHERE id = $1`,
          [run],
        )
      )[0],
    );
    expect(read.lastRun?.created_at.toISOString()).toBe('2026-03-03T10:00:00.987Z');
    expect(read.checks).toEqual(
      await direct(
        `SELECT id, number, kind, document_type, identifier, status, findings_count, demo, created_by,
                created_by_name, created_at, duration_ms
           FROM one_time_checks WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT 2`,
      ),
    );
    expect(read.checks.map((check) => check.created_at.toISOString())).toEqual([
      '2026-03-02T10:00:00.500Z',
      '2026-03-02T10:00:00.500Z',
    ]);
    expect(read.deliveries).toEqual({ recent: 1, total: 1 });
    expect(read.unread).toEqual([]);
    expect(read.lastItemCheckAt?.toISOString()).toBe('2026-03-04T10:00:00.000Z');
  });
});
