import {
  EVENT_TYPE_CODES,
  type StatisticsBody,
  type StatisticsPoint,
  type StatisticsResponse,
} from '@pledgewatch/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { periodBuckets } from './statistics.service.ts';
import {
  insertDelivery,
  insertEvent,
  insertItem,
  insertOneTimeCheck,
  insertRun,
  insertUpload,
} from './testing/statistics-fixtures.ts';

const { app } = await buildTestApp();

async function statistics(user: TestUser, body: StatisticsBody): Promise<StatisticsResponse> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/statistics/data',
    headers: bearer(user.token),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const byBucket = (result: StatisticsResponse) =>
  Object.fromEntries(result.points.map((point) => [point.bucket, point])) as Record<string, StatisticsPoint>;
const nonZero = (record: Record<string, number>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== 0));

/**
 * One organisation with rows at known instants around 1–5 March 2026 (Moscow = UTC+3, so 21:00 UTC
 * is already the next Moscow day).
 */
let user: TestUser;
let itemA: string;
beforeAll(async () => {
  user = await createSignedInUser(app);
  const org = user.organisationId;
  const db = app.db;
  itemA = await insertItem(db, org, { label: 'Toyota Camry', createdAt: '2025-12-01T09:00:00Z' });
  const itemB = await insertItem(db, org, { label: 'Lada Vesta', createdAt: '2025-12-01T09:00:00Z' });
  const itemD = await insertItem(db, org, {
    kind: 'document',
    label: 'Иванов (passport)',
    createdAt: '2025-12-01T09:00:00Z',
  });
  // Portfolio movements: one item before the period, one archived inside it, one added inside it
  // (on the Moscow day after its UTC day), one archived before the period.
  await insertItem(db, org, { createdAt: '2026-02-01T09:00:00Z' });
  await insertItem(db, org, { createdAt: '2026-02-10T09:00:00Z', archivedAt: '2026-03-02T10:00:00Z' });
  await insertItem(db, org, { createdAt: '2026-03-03T22:00:00Z' });
  await insertItem(db, org, { createdAt: '2026-01-01T09:00:00Z', archivedAt: '2026-02-15T09:00:00Z' });

  const run = await insertRun(db, org, { createdAt: '2026-03-01T10:00:00Z', itemsDone: 100 });
  await insertRun(db, org, { createdAt: '2026-03-03T21:10:00Z', itemsDone: 50 });
  const event = (itemId: string, type: string, source: string, detectedAt: string) =>
    insertEvent(db, { organisationId: org, itemId, runId: run, type, source, detectedAt });
  await event(itemA, 'wanted_added', 'wanted', '2026-03-01T10:00:00Z'); // 01.03 13:00 МСК
  await event(itemA, 'wanted_added', 'wanted', '2026-02-28T21:00:00Z'); // 01.03 00:00 МСК
  await event(itemB, 'wanted_added', 'wanted', '2026-02-28T20:59:00Z'); // 28.02 23:59 МСК — outside
  await event(itemB, 'restriction_added', 'restrictions', '2026-03-02T20:59:00Z'); // 02.03 23:59 МСК
  await event(itemB, 'pledge_registered_other', 'pledges', '2026-03-02T21:30:00Z'); // 03.03 00:30 МСК
  await event(itemD, 'bankruptcy_opened', 'bankruptcy', '2026-03-04T12:00:00Z');
  await event(itemA, 'wanted_removed', 'wanted', '2026-03-05T20:59:59Z'); // 05.03 23:59 МСК
  await event(itemA, 'wanted_added', 'wanted', '2026-03-05T21:00:00Z'); // 06.03 — outside

  await insertOneTimeCheck(db, org, { createdAt: '2026-03-02T08:00:00Z' });
  await insertOneTimeCheck(db, org, { kind: 'document', createdAt: '2026-03-02T09:00:00Z' });
  await insertUpload(db, org, { createdAt: '2026-03-05T10:00:00Z', rows: 10, accepted: 8, rejected: 2 });
  await insertDelivery(db, org, { status: 'sent', createdAt: '2026-03-01T10:00:00Z' });
  await insertDelivery(db, org, { status: 'sent', createdAt: '2026-03-01T11:00:00Z' });
  await insertDelivery(db, org, { status: 'failed', createdAt: '2026-03-01T12:00:00Z' });
  await insertDelivery(db, org, { status: 'queued', createdAt: '2026-03-05T21:30:00Z' }); // 06.03 — outside
});

describe('POST /api/v1/monitoring/statistics/data', () => {
  it('counts one-time checks from their daily rollup as the checks themselves: inserted, deleted, moved', async () => {
    const owner = await createSignedInUser(app);
    const org = owner.organisationId;
    const db = app.db;
    await insertOneTimeCheck(db, org, { createdAt: '2026-04-01T20:59:00Z' }); // 01.04 23:59 МСК
    const moved = await insertOneTimeCheck(db, org, { createdAt: '2026-04-01T21:00:00Z' }); // 02.04
    await insertOneTimeCheck(db, org, { kind: 'document', createdAt: '2026-04-02T10:00:00Z' });
    const removed = await insertOneTimeCheck(db, org, { createdAt: '2026-04-03T10:00:00Z' });
    await insertOneTimeCheck(db, org, { createdAt: '2026-04-04T21:00:00Z' }); // 05.04 — outside
    await db.query('DELETE FROM one_time_checks WHERE id = $1', [removed]);
    await db.query(`UPDATE one_time_checks SET created_at = '2026-04-04T09:00:00Z' WHERE id = $1`, [moved]);
    const period = { from: '2026-04-01', to: '2026-04-04', grouping: 'day' } as const;
    expect((await statistics(owner, period)).points.map((point) => point.oneTimeChecks)).toEqual([
      1, 1, 0, 1,
    ]);
    expect(
      (await statistics(owner, { ...period, itemKind: 'vin' })).points.map((point) => point.oneTimeChecks),
    ).toEqual([1, 0, 0, 1]);
    const weeks = await statistics(owner, { ...period, grouping: 'week' });
    expect(weeks.points.map((point) => point.oneTimeChecks)).toEqual([3]);
    // The same as counting the checks themselves by Moscow day.
    const { rows } = await db.query<{ day: string; n: number }>(
      `SELECT ((created_at AT TIME ZONE 'Europe/Moscow')::date)::text AS day, count(*)::int AS n
         FROM one_time_checks WHERE organisation_id = $1 GROUP BY 1 ORDER BY 1`,
      [org],
    );
    expect(rows).toEqual([
      { day: '2026-04-01', n: 1 },
      { day: '2026-04-02', n: 1 },
      { day: '2026-04-04', n: 1 },
      { day: '2026-04-05', n: 1 },
    ]);
  });

  it('groups by Moscow day: every day present, the 21:00 UTC boundary, hand-computed series', async () => {
    const result = await statistics(user, { from: '2026-03-01', to: '2026-03-05', grouping: 'day' });
    expect(result.timezone).toBe('Europe/Moscow');
    expect(result.points.map((point) => point.bucket)).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
    ]);
    const days = byBucket(result);
    expect(nonZero(days['2026-03-01']!.eventsByType)).toEqual({ wanted_added: 2 });
    expect(nonZero(days['2026-03-02']!.eventsByType)).toEqual({ restriction_added: 1 });
    // 21:30 UTC on 2 March is 00:30 on 3 March in Moscow.
    expect(nonZero(days['2026-03-03']!.eventsByType)).toEqual({ pledge_registered_other: 1 });
    expect(nonZero(days['2026-03-04']!.eventsByType)).toEqual({ bankruptcy_opened: 1 });
    expect(nonZero(days['2026-03-05']!.eventsByType)).toEqual({ wanted_removed: 1 });
    expect(result.points.map((point) => point.events)).toEqual([2, 1, 1, 1, 1]);
    // Empty buckets are zeros, every type of the series is present in every bucket.
    expect(Object.keys(days['2026-03-02']!.eventsByType)).toHaveLength(EVENT_TYPE_CODES.length);
    expect(days['2026-03-02']!.eventsByType.wanted_added).toBe(0);

    // Portfolio: 3 old + 1 from February + 1 archived on 2 March; +1 added on 4 March (Moscow).
    expect(result.totals.itemsMonitoredStart).toBe(5);
    expect(result.points.map((point) => point.itemsMonitored)).toEqual([5, 4, 4, 5, 5]);
    expect(result.points.map((point) => point.itemsAdded)).toEqual([0, 0, 0, 1, 0]);
    expect(result.points.map((point) => point.itemsArchived)).toEqual([0, 1, 0, 0, 0]);
    expect(result.totals.itemsMonitoredEnd).toBe(5);

    expect(result.points.map((point) => point.checkRuns)).toEqual([1, 0, 0, 1, 0]);
    expect(result.points.map((point) => point.checkRunItems)).toEqual([100, 0, 0, 50, 0]);
    expect(result.points.map((point) => point.oneTimeChecks)).toEqual([0, 2, 0, 0, 0]);
    expect(result.points.map((point) => point.uploads)).toEqual([0, 0, 0, 0, 1]);
    expect(days['2026-03-05']).toMatchObject({
      uploadRows: 10,
      uploadRowsAccepted: 8,
      uploadRowsRejected: 2,
    });
    expect(days['2026-03-01']!.deliveries).toEqual({
      queued: 0,
      sending: 0,
      retrying: 0,
      sent: 2,
      failed: 1,
    });
    expect(days['2026-03-05']!.deliveries).toEqual({
      queued: 0,
      sending: 0,
      retrying: 0,
      sent: 0,
      failed: 0,
    });

    expect(result.totals).toMatchObject({
      events: 6,
      checkRuns: 2,
      oneTimeChecks: 2,
      uploads: 1,
      uploadRows: 10,
      deliveriesTotal: 3,
      deliveries: { sent: 2, failed: 1, queued: 0 },
    });
    expect(nonZero(result.totals.eventsByType)).toEqual({
      wanted_added: 2,
      restriction_added: 1,
      pledge_registered_other: 1,
      bankruptcy_opened: 1,
      wanted_removed: 1,
    });
    expect(result.eventTypes[0]).toBe('wanted_added');
  });

  it('a period with nothing in it is all zeros, not an empty list', async () => {
    const result = await statistics(user, { from: '2025-06-01', to: '2025-06-03', grouping: 'day' });
    expect(result.points).toHaveLength(3);
    for (const point of result.points) {
      expect(point.events).toBe(0);
      expect(point.itemsMonitored).toBe(0);
      expect(point.deliveries).toEqual({ queued: 0, sending: 0, retrying: 0, sent: 0, failed: 0 });
    }
  });

  it('groups by ISO week (Monday) and by month, clipping the first and last bucket to the period', async () => {
    // 1 March 2026 is a Sunday: its week began on 23 February.
    const weeks = await statistics(user, { from: '2026-03-01', to: '2026-03-16', grouping: 'week' });
    expect(weeks.points.map((point) => [point.bucket, point.bucketEnd])).toEqual([
      ['2026-03-01', '2026-03-01'],
      ['2026-03-02', '2026-03-08'],
      ['2026-03-09', '2026-03-15'],
      ['2026-03-16', '2026-03-16'],
    ]);
    expect(weeks.points.map((point) => point.events)).toEqual([2, 5, 0, 0]);
    expect(weeks.points.map((point) => point.itemsMonitored)).toEqual([5, 5, 5, 5]);
    expect(weeks.points.map((point) => point.checkRuns)).toEqual([1, 1, 0, 0]);

    const months = await statistics(user, { from: '2026-01-15', to: '2026-03-10', grouping: 'month' });
    expect(months.points.map((point) => [point.bucket, point.bucketEnd])).toEqual([
      ['2026-01-15', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-10'],
    ]);
    // 28.02 23:59 МСК belongs to February; 06.03 00:00 МСК to March.
    expect(months.points.map((point) => point.events)).toEqual([0, 1, 7]);
    // Jan: 3 old (+1 from Jan 1 is before the 15th: counted at start); Feb: +2 added, −1 archived.
    expect(months.totals.itemsMonitoredStart).toBe(4);
    expect(months.points.map((point) => point.itemsMonitored)).toEqual([4, 5, 5]);
  });

  it('filters events by type, source, item kind and label; the label path agrees with the rollup', async () => {
    const period = { from: '2026-03-01', to: '2026-03-05', grouping: 'day' } as const;
    const wanted = await statistics(user, { ...period, sources: ['wanted'] });
    expect(wanted.points.map((point) => point.events)).toEqual([2, 0, 0, 0, 1]);
    const oneType = await statistics(user, { ...period, eventTypes: ['wanted_added'] });
    expect(oneType.eventTypes).toEqual(['wanted_added']);
    expect(Object.keys(oneType.points[0]!.eventsByType)).toEqual(['wanted_added']);
    expect(oneType.totals.events).toBe(2);
    const documents = await statistics(user, { ...period, itemKind: 'document' });
    expect(documents.points.map((point) => point.events)).toEqual([0, 0, 0, 1, 0]);
    expect(documents.totals.itemsMonitoredStart).toBe(1);
    expect(documents.totals.oneTimeChecks).toBe(1);

    const camry = await statistics(user, { ...period, label: 'camry' });
    expect(camry.points.map((point) => point.events)).toEqual([2, 0, 0, 0, 1]);
    expect(camry.totals.itemsMonitoredStart).toBe(1);
    // A label every item with a label matches ("a"): the raw events give what the rollup gives.
    const rollup = await statistics(user, period);
    const raw = await statistics(user, { ...period, label: 'a' });
    expect(raw.points.map((point) => point.eventsByType)).toEqual(
      rollup.points.map((point) => point.eventsByType),
    );
  });

  it('keeps the rollups in step: events deleted with their item, archive and restore, delivery statuses', async () => {
    const other = await createSignedInUser(app);
    const item = await insertItem(app.db, other.organisationId, { createdAt: '2026-01-01T00:00:00Z' });
    const run = await insertRun(app.db, other.organisationId, { createdAt: '2026-03-01T00:00:00Z' });
    for (const detectedAt of ['2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z']) {
      await insertEvent(app.db, {
        organisationId: other.organisationId,
        itemId: item,
        runId: run,
        type: 'accident_recorded',
        source: 'accidents',
        detectedAt,
      });
    }
    const period = { from: '2026-03-01', to: '2026-03-01' };
    expect((await statistics(other, period)).totals).toMatchObject({ events: 2, itemsMonitoredEnd: 1 });

    // Archived on 1 March (Moscow), then restored: the portfolio follows archived_at.
    await app.db.query(`UPDATE monitoring_items SET status = 'archived', archived_at = $2 WHERE id = $1`, [
      item,
      '2026-03-01T12:00:00Z',
    ]);
    expect((await statistics(other, period)).totals).toMatchObject({
      itemsArchived: 1,
      itemsMonitoredEnd: 0,
    });
    await app.db.query(`UPDATE monitoring_items SET status = 'active', archived_at = NULL WHERE id = $1`, [
      item,
    ]);
    expect((await statistics(other, period)).totals).toMatchObject({
      itemsArchived: 0,
      itemsMonitoredEnd: 1,
    });
    // Checking an item touches last_checked_at only: nothing moves.
    await app.db.query('UPDATE monitoring_items SET last_checked_at = now() WHERE id = $1', [item]);
    expect((await statistics(other, period)).totals.itemsMonitoredEnd).toBe(1);

    // A delivery moves between statuses within its day.
    await insertDelivery(app.db, other.organisationId, {
      status: 'queued',
      createdAt: '2026-03-01T09:00:00Z',
    });
    expect((await statistics(other, period)).totals.deliveries).toMatchObject({ queued: 1, sent: 0 });
    await app.db.query(`UPDATE notification_deliveries SET status = 'sent' WHERE organisation_id = $1`, [
      other.organisationId,
    ]);
    expect((await statistics(other, period)).totals.deliveries).toMatchObject({ queued: 0, sent: 1 });

    await app.db.query('DELETE FROM monitoring_items WHERE id = $1', [item]);
    expect((await statistics(other, period)).totals).toMatchObject({ events: 0, itemsMonitoredEnd: 0 });
  });

  it('the label filter from its rollup equals the events joined to their items, through relabels, archives and deletes', async () => {
    const other = await createSignedInUser(app);
    const org = other.organisationId;
    const db = app.db;
    const run = await insertRun(db, org, { createdAt: '2026-03-01T00:00:00Z' });
    const labels = ['Toyota Camry', 'toyota CAMRY 2', 'Kia Rio', 'Kia Rio', null, 'Лада Веста', '50%_off'];
    const items: string[] = [];
    for (const [index, label] of labels.entries()) {
      items.push(
        await insertItem(db, org, {
          kind: index === 5 ? 'document' : 'vin',
          label,
          createdAt: `2026-0${1 + (index % 3)}-0${1 + index}T20:30:00Z`,
          archivedAt: index === 3 ? '2026-03-02T21:30:00Z' : null,
        }),
      );
    }
    const sources = [
      ['wanted_added', 'wanted'],
      ['restriction_added', 'restrictions'],
      ['accident_recorded', 'accidents'],
    ] as const;
    for (let n = 0; n < 40; n++) {
      const [type, source] = sources[n % 3]!;
      await insertEvent(db, {
        organisationId: org,
        itemId: items[n % items.length]!,
        runId: run,
        type: n % 7 === 5 ? 'bankruptcy_opened' : type,
        source: n % 7 === 5 ? 'bankruptcy' : source,
        detectedAt: new Date(Date.parse('2026-02-27T00:00:00Z') + n * 7 * 3_600_000).toISOString(),
      });
    }
    // Relabelled (events move to the new label), archived, restored with a new label, one deleted.
    await db.query(`UPDATE monitoring_items SET label = 'Kia Ceed' WHERE id = $1`, [items[2]]);
    await db.query(`UPDATE monitoring_items SET label = 'Camry new' WHERE id = $1`, [items[4]]);
    await db.query(
      `UPDATE monitoring_items SET status = 'archived', archived_at = '2026-03-03T10:00:00Z' WHERE id = $1`,
      [items[0]],
    );
    await db.query(
      `UPDATE monitoring_items SET status = 'active', archived_at = NULL, label = 'KIA x' WHERE id = $1`,
      [items[3]],
    );
    await db.query('DELETE FROM monitoring_items WHERE id = $1', [items[1]]);
    await db.query(`DELETE FROM monitoring_events WHERE item_id = $1 AND event_type = 'wanted_added'`, [
      items[6],
    ]);

    const period = { from: '2026-03-01', to: '2026-03-06' } as const;
    for (const label of ['camry', 'kia', 'KIA C', 'веста', '%_', 'a', 'nothing']) {
      for (const grouping of ['day'] as const) {
        const result = await statistics(other, { ...period, grouping, label });
        const pattern = `%${label.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        // The straightforward query: the events of the items whose current label matches.
        const { rows: events } = await db.query<{ bucket: string; n: number }>(
          `SELECT date_trunc($2, e.detected_at AT TIME ZONE 'Europe/Moscow')::date::text AS bucket, count(*)::int AS n
             FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
            WHERE e.organisation_id = $1 AND lower(i.label) LIKE $3
              AND e.detected_at >= '2026-02-28T21:00:00Z' AND e.detected_at < '2026-03-06T21:00:00Z'
            GROUP BY 1`,
          [org, grouping, pattern],
        );
        const { rows: portfolio } = await db.query<{ start: number; end: number }>(
          `SELECT count(*) FILTER (WHERE created_at < '2026-02-28T21:00:00Z'
                                     AND (archived_at IS NULL OR archived_at >= '2026-02-28T21:00:00Z'))::int AS start,
                  count(*) FILTER (WHERE created_at < '2026-03-06T21:00:00Z'
                                     AND (archived_at IS NULL OR archived_at >= '2026-03-06T21:00:00Z'))::int AS end
             FROM monitoring_items WHERE organisation_id = $1 AND lower(label) LIKE $2`,
          [org, pattern],
        );
        const expected = Object.fromEntries(events.map((row) => [row.bucket, row.n]));
        const got = Object.fromEntries(
          result.points.filter((point) => point.events > 0).map((point) => [point.bucket, point.events]),
        );
        expect(got, `${label} by ${grouping}`).toEqual(expected);
        expect(result.totals.itemsMonitoredStart, label).toBe(portfolio[0]!.start);
        expect(result.totals.itemsMonitoredEnd, label).toBe(portfolio[0]!.end);
        expect(result.totals.events, label).toBe(events.reduce((sum, row) => sum + row.n, 0));
      }
    }
    expect(
      (await statistics(other, { ...period, grouping: 'day', label: 'kia' })).totals.events,
    ).toBeGreaterThan(0);
  });

  it('shows an organisation only its own rows', async () => {
    const stranger = await createSignedInUser(app);
    const result = await statistics(stranger, { from: '2026-03-01', to: '2026-03-05' });
    expect(result.totals).toMatchObject({
      events: 0,
      itemsMonitoredStart: 0,
      itemsMonitoredEnd: 0,
      checkRuns: 0,
      oneTimeChecks: 0,
      uploads: 0,
      deliveriesTotal: 0,
    });
  });

  it('refuses a period that ends before it starts or is too long, and needs a session', async () => {
    const backwards = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/statistics/data',
      headers: bearer(user.token),
      payload: { from: '2026-03-05', to: '2026-03-01' },
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().fieldErrors).toEqual([{ field: 'to', message: 'Конец периода раньше начала' }]);
    const long = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/statistics/data',
      headers: bearer(user.token),
      payload: { from: '2020-01-01', to: '2026-03-01' },
    });
    expect(long.statusCode).toBe(422);
    const badDate = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/statistics/data',
      headers: bearer(user.token),
      payload: { from: '2026-02-30', to: '2026-03-01' },
    });
    expect(badDate.statusCode).toBe(422);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/statistics/data',
      payload: { from: '2026-03-01', to: '2026-03-02' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('periodBuckets', () => {
  it('cuts a year into 53 ISO weeks and 12 months', () => {
    expect(periodBuckets('2026-01-01', '2026-12-31', 'month')).toHaveLength(12);
    const weeks = periodBuckets('2026-01-01', '2026-12-31', 'week');
    expect(weeks[0]).toEqual({ key: '2025-12-29', bucket: '2026-01-01', bucketEnd: '2026-01-04' });
    expect(weeks.at(-1)).toEqual({ key: '2026-12-28', bucket: '2026-12-28', bucketEnd: '2026-12-31' });
    expect(weeks).toHaveLength(53);
    expect(periodBuckets('2024-02-01', '2024-03-01', 'day')).toHaveLength(30);
  });
});

describe('the spend on provider requests', () => {
  it('is a series per bucket and a total for admins; absent for analysts', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const analyst = await createSignedInUser(app, { role: 'analyst', organisationId: admin.organisationId });
    await app.db.query(
      `INSERT INTO source_request_days (source_type, day, requests, spend) VALUES
         ('wanted', '2026-02-02', 10, 15), ('pledges', '2026-02-02', 4, 2.5), ('wanted', '2026-02-05', 2, 3)`,
    );
    const body = { from: '2026-02-01', to: '2026-02-10', grouping: 'week' } as const;
    const forAdmin = await statistics(admin, body);
    expect(forAdmin.points.map((point) => [point.bucket, point.spend])).toEqual([
      ['2026-02-01', 0],
      ['2026-02-02', 20.5],
      ['2026-02-09', 0],
    ]);
    expect(forAdmin.totals.spend).toBe(20.5);
    const forAnalyst = await statistics(analyst, body);
    expect(forAnalyst.points.every((point) => !('spend' in point))).toBe(true);
    expect(forAnalyst.totals).not.toHaveProperty('spend');
  });
});
