import type { NotificationRule } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import { addItems, randomVin } from '../testing/checks-test-helpers.ts';
import { raiseLapseEvents } from './pledge-lapse.ts';

const { app } = await buildTestApp();

const DAY = 86_400_000;
/** Noon in Moscow of the day `days` from the contract's end (2026-09-30). */
const END = '2026-09-30';
const at = (days: number) => new Date(Date.parse(`${END}T09:00:00Z`) + days * DAY);

async function seedPledge(
  admin: TestUser,
  options: { status?: string; endDate?: string; registered?: boolean } = {},
) {
  const vin = randomVin('XTL');
  const [itemId] = await addItems(app, admin.organisationId, [{ kind: 'vin', identifier: vin }]);
  const party = { kind: 'person', lastName: 'Иванов', firstName: 'Иван' };
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO pledges (organisation_id, registration_number, status, contract_number, contract_date,
       contract_end_date, pledgor, pledgor_name, pledgor_document_type, pledgor_identifier, pledgee, pledgee_name,
       vehicles, created_on, last_notification_date)
     VALUES ($1, $6, $2, 'КД-77', '2025-09-30', $3, $4, 'Иванов Иван', 'passport_rf',
             '4506123456', $4, 'Банк', $5, '2025-10-01', '2025-10-01') RETURNING id`,
    [
      admin.organisationId,
      options.status ?? 'active',
      options.endDate ?? END,
      JSON.stringify(party),
      JSON.stringify([{ vin, bodyNumber: null, chassisNumber: null, description: null }]),
      options.registered === false ? null : `2026-${vin}`,
    ],
  );
  await app.db.query(
    `INSERT INTO pledge_vehicles (pledge_id, organisation_id, position, vin) VALUES ($1, $2, 0, $3)`,
    [rows[0]!.id, admin.organisationId, vin],
  );
  return { pledgeId: rows[0]!.id, itemId: itemId!, vin };
}

const lapseEvents = (admin: TestUser) =>
  app
    .inject({
      method: 'GET',
      url: '/api/v1/monitoring/events/items?type=pledge_term_lapse&pageSize=100',
      headers: bearer(admin.token),
    })
    .then((response) => response.json());

describe('pledge-term lapse events', () => {
  it('raises one event 30 and 7 days before the term ends and one on the day, each once, and notifies', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const rule = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(admin.token),
        payload: {
          name: 'Сроки залогов',
          method: 'email',
          recipients: ['risk@bank.test'],
          eventTypes: ['pledge_term_lapse'],
        },
      })
    ).json<NotificationRule>();
    // A per-run digest has no run to wait for: the lapse goes at once.
    const runDigest = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(admin.token),
        payload: { name: 'Сводка', method: 'email', recipients: ['boss@bank.test'], mode: 'run' },
      })
    ).json<NotificationRule>();
    const { itemId } = await seedPledge(admin);
    const excluded = await seedPledge(admin, { status: 'excluded' });
    const draft = await seedPledge(admin, { registered: false });

    const raise = (days: number) => raiseLapseEvents({ db: app.db, queue: app.queue, now: at(days) });
    await raise(-31);
    await raise(-30);
    await raise(-30);
    await raise(-20);
    await raise(-7);
    await raise(-3);
    await raise(0);
    await raise(0);
    await raise(2);
    await raise(30);

    const events = await lapseEvents(admin);
    expect(events.total).toBe(3);
    const byKey = events.items
      .map((event: { findingKey: string; severity: string; after: Record<string, unknown> }) => ({
        milestone: event.findingKey.split(':').at(-1),
        severity: event.severity,
        daysLeft: event.after.days_left,
      }))
      .sort((a: { daysLeft: number }, b: { daysLeft: number }) => b.daysLeft - a.daysLeft);
    expect(byKey).toEqual([
      { milestone: '30', severity: 'medium', daysLeft: 30 },
      { milestone: '7', severity: 'high', daysLeft: 7 },
      { milestone: '0', severity: 'high', daysLeft: 0 },
    ]);
    expect(events.items[0]).toMatchObject({
      type: 'pledge_term_lapse',
      typeLabel: 'Истекает срок договора залога',
      source: 'pledges',
      runId: null,
      item: { id: itemId },
      after: { contract: 'КД-77 от 30.09.2025', contract_end_date: END, pledgor: 'Иванов Иван' },
    });
    const items = events.items.map((event: { item: { id: string } }) => event.item.id);
    expect(items).not.toContain(excluded.itemId);
    expect(items).not.toContain(draft.itemId);

    // Through the rules like any event: one delivery per event.
    const { rows } = await app.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM notification_deliveries WHERE rule_id = $1 GROUP BY kind`,
      [rule.id],
    );
    expect(rows).toEqual([{ kind: 'event', n: 3 }]);
    const digest = await app.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM notification_deliveries WHERE rule_id = $1 GROUP BY kind`,
      [runDigest.id],
    );
    expect(digest.rows).toEqual([{ kind: 'event', n: 3 }]);
  });

  it('starts afresh when the end date moves; a pledge without an end date raises nothing', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const { pledgeId } = await seedPledge(admin);
    await raiseLapseEvents({ db: app.db, queue: app.queue, now: at(-10) });
    await app.db.query(`UPDATE pledges SET contract_end_date = '2026-10-20' WHERE id = $1`, [pledgeId]);
    await raiseLapseEvents({ db: app.db, queue: app.queue, now: at(-10) });
    await seedPledge(admin, { endDate: undefined }).then(({ pledgeId: id }) =>
      app.db.query('UPDATE pledges SET contract_end_date = NULL WHERE id = $1', [id]),
    );
    await raiseLapseEvents({ db: app.db, queue: app.queue, now: at(-5) });
    const keys = (await lapseEvents(admin)).items
      .map((event: { findingKey: string }) => event.findingKey)
      .sort();
    expect(keys).toEqual([`${pledgeId}:2026-09-30:30`, `${pledgeId}:2026-10-20:30`]);
  });
});
