/**
 * What a run writes per finding (issue #15, migration 0044): snapshots and events are checked row by
 * row against their item only; the organisation's and the run's deletes still take them along.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import { addItems, importRecords, randomVin, runChecksNow } from '../testing/checks-test-helpers.ts';

const { app, config } = await buildTestApp();

let staff: TestUser;

/** An organisation with one pledged VIN, checked once: one snapshot and one event. */
async function checkedOrganisation(): Promise<{ user: TestUser; runId: string; itemId: string }> {
  const user = await createSignedInUser(app, { role: 'analyst' });
  const vin = randomVin();
  await importRecords(app, staff.token, 'pledges', [
    {
      vin,
      notice_number: `N-${vin}`,
      status: 'active',
      registered_at: '2025-02-01',
      pledgee: 'ООО «Другой»',
    },
  ]);
  const [itemId] = await addItems(app, user.organisationId, [{ kind: 'vin', identifier: vin }]);
  const run = await runChecksNow(app, config, user.token);
  // The other dataset sources have no data here: the run completes with their errors.
  expect(run).toMatchObject({ status: 'completed_with_errors', eventsCreated: 1 });
  return { user, runId: run.id, itemId: itemId! };
}

const count = async (table: string, column: string, value: string) =>
  (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [value]))
    .rows[0]!.n;

beforeAll(async () => {
  staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
});

describe("a run's snapshots and events", () => {
  it('are checked row by row against their item only (the columns a run writes)', async () => {
    const { rows } = await app.db.query<{ table: string; columns: string }>(
      `SELECT conrelid::regclass::text AS table,
              (SELECT string_agg(a.attname, ',') FROM unnest(c.conkey) k JOIN pg_attribute a
                 ON a.attrelid = c.conrelid AND a.attnum = k) AS columns
         FROM pg_constraint c
        WHERE contype = 'f' AND conrelid IN ('finding_snapshots'::regclass, 'monitoring_events'::regclass)
        ORDER BY 1, 2`,
    );
    // read_by is NULL when a run writes an event: its check ends at the null.
    expect(rows).toEqual([
      { table: 'finding_snapshots', columns: 'item_id' },
      { table: 'monitoring_events', columns: 'item_id' },
      { table: 'monitoring_events', columns: 'read_by' },
    ]);
  });

  it("go with their organisation's deletion", async () => {
    const { user, runId } = await checkedOrganisation();
    expect(await count('finding_snapshots', 'organisation_id', user.organisationId)).toBe(1);
    expect(await count('monitoring_events', 'organisation_id', user.organisationId)).toBe(1);
    await app.db.query('DELETE FROM users WHERE organisation_id = $1', [user.organisationId]);
    await app.db.query('DELETE FROM organisations WHERE id = $1', [user.organisationId]);
    expect(await count('finding_snapshots', 'organisation_id', user.organisationId)).toBe(0);
    expect(await count('monitoring_events', 'organisation_id', user.organisationId)).toBe(0);
    expect(await count('check_runs', 'id', runId)).toBe(0);
  });

  it("a run's deletion takes its events and leaves its snapshots without a run", async () => {
    const { user, runId, itemId } = await checkedOrganisation();
    const other = await checkedOrganisation();
    await app.db.query('DELETE FROM check_runs WHERE id = $1', [runId]);
    expect(await count('monitoring_events', 'run_id', runId)).toBe(0);
    const { rows } = await app.db.query(
      'SELECT item_id, run_id FROM finding_snapshots WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(rows).toEqual([{ item_id: itemId, run_id: null }]);
    // Another organisation's run and its writes are untouched.
    expect(await count('monitoring_events', 'run_id', other.runId)).toBe(1);
    expect(await count('finding_snapshots', 'run_id', other.runId)).toBe(1);
  });
});
