import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser } from '../../testing/test-app.ts';
import { insertDelivery } from '../statistics/testing/statistics-fixtures.ts';
import { countFailedDeliveries } from './dashboard.queries.ts';

const { app } = await buildTestApp();

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

async function directCount(organisationId: string, since: Date) {
  const { rows } = await app.db.query<{ recent: number; total: number }>(
    `SELECT count(*) FILTER (WHERE created_at >= $2)::int AS recent, count(*)::int AS total
       FROM notification_deliveries WHERE organisation_id = $1 AND status = 'failed'`,
    [organisationId, since],
  );
  return rows[0]!;
}

describe('dashboard failed deliveries (from the per-day rollup)', () => {
  it('equals a direct count, with the first day of the period counted to the hour', async () => {
    const org = (await createSignedInUser(app)).organisationId;
    // Around the start of a 7-day period, whole days inside it, long before it, and other statuses.
    for (const hours of [0, 1, 30, 24 * 6 + 23, 24 * 7 - 1, 24 * 7 + 1, 24 * 7 + 5, 24 * 8, 24 * 60]) {
      await insertDelivery(app.db, org, { status: 'failed', createdAt: hoursAgo(hours) });
    }
    await insertDelivery(app.db, org, { status: 'sent', createdAt: hoursAgo(2) });
    const other = (await createSignedInUser(app)).organisationId;
    await insertDelivery(app.db, other, { status: 'failed', createdAt: hoursAgo(3) });
    for (const hours of [0, 3, 11, 21, 24 * 7, 24 * 30]) {
      const since = new Date(Date.now() - hours * 3_600_000 - 7 * 86_400_000);
      expect(await countFailedDeliveries(app.db, org, since), String(hours)).toEqual(
        await directCount(org, since),
      );
    }
    // A retry that succeeded and a deleted delivery move out of the counts.
    await app.db.query(
      `UPDATE notification_deliveries SET status = 'sent'
        WHERE id = (SELECT id FROM notification_deliveries WHERE organisation_id = $1 AND status = 'failed'
                     ORDER BY created_at DESC LIMIT 1)`,
      [org],
    );
    await app.db.query(
      `DELETE FROM notification_deliveries
        WHERE id = (SELECT id FROM notification_deliveries WHERE organisation_id = $1 AND status = 'failed'
                     ORDER BY created_at LIMIT 1)`,
      [org],
    );
    const since = new Date(Date.now() - 7 * 86_400_000);
    const counts = await countFailedDeliveries(app.db, org, since);
    expect(counts).toEqual(await directCount(org, since));
    expect(counts.total).toBe(7);
  });
});
