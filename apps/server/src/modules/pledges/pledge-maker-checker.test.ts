import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { creationBody, makeVin, requester } from './testing/pledge-test-helpers.ts';

const { app } = await buildTestApp();
const { send } = requester(app);

/** A creation entered by the user; answers the event's id. */
async function enter(user: TestUser, vin = makeVin()) {
  const response = await send('POST', '/api/v1/pledges/events', user, creationBody([vin]));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().event.id as string;
}

/** Corrects the event's contract name (a real change each time). */
async function correct(user: TestUser, eventId: string, name: string) {
  const current = (await send('GET', `/api/v1/pledges/events/${eventId}`, user)).json();
  const body = {
    kind: current.kind,
    registrationNumber: current.registrationNumber,
    notificationDate: current.notificationDate,
    pledgor: { ...current.pledgor, name: undefined },
    pledgee: current.pledgee.type === 'company' ? { ...current.pledgee } : current.pledgee,
    contract: { ...current.contract, name },
    vehicles: current.vehicles,
  };
  const response = await send('PUT', `/api/v1/pledges/events/${eventId}`, user, body);
  expect(response.statusCode, response.body).toBe(200);
}

async function packageOf(user: TestUser, eventIds: string[]) {
  const response = await send('POST', '/api/v1/pledges/packages', user, { eventIds });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const approve = (user: TestUser, packageId: string) =>
  send('POST', `/api/v1/pledges/packages/${packageId}/transition`, user, { action: 'approve' });

/** An organisation of four: two analysts, an admin and a colleague who touched nothing. */
async function team() {
  const analyst = await createSignedInUser(app, { role: 'analyst' });
  const org = { organisationId: analyst.organisationId };
  return {
    analyst,
    second: await createSignedInUser(app, { role: 'analyst', ...org }),
    admin: await createSignedInUser(app, { role: 'admin', ...org }),
    outsider: await createSignedInUser(app, { role: 'analyst', ...org }),
  };
}

describe('maker-checker by correction (issue 27, finding 2)', () => {
  it('an analyst who corrected a notification may not approve its package after an admin corrected it again', async () => {
    const { analyst, second, admin, outsider } = await team();
    const eventId = await enter(second);
    await correct(analyst, eventId, 'Договор залога (исправлен аналитиком)');
    await correct(admin, eventId, 'Договор залога (исправлен администратором)');
    const packageId = await packageOf(outsider, [eventId]);
    // The package was made by the outsider: only the correction history makes the analyst a maker.
    const listed = (await send('GET', `/api/v1/pledges/packages/${packageId}`, analyst)).json();
    expect(listed.canApprove).toBe(false);
    expect(listed.approveBlockedReason).toMatch(/^В пакете есть уведомления, которые вы исправляли\./);
    const refused = await approve(analyst, packageId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/которые вы исправляли/);
    // The later corrector is a maker too; so is the author.
    expect((await approve(admin, packageId)).statusCode).toBe(403);
    expect((await approve(second, packageId)).statusCode).toBe(403);
    const { rows } = await app.db.query<{ corrected_by: string }>(
      'SELECT corrected_by FROM pledge_event_corrections WHERE event_id = $1 ORDER BY id',
      [eventId],
    );
    expect(rows.map((r) => r.corrected_by)).toEqual([analyst.id, admin.id]);
  });

  it('a corrector of any one notification of a package may not approve it; someone who touched nothing may', async () => {
    const { analyst, second, admin, outsider } = await team();
    const first = await enter(second);
    const other = await enter(second);
    await correct(analyst, other, 'Исправлено');
    const packageId = await packageOf(outsider, [first, other]);
    expect((await approve(analyst, packageId)).statusCode).toBe(403);
    expect((await approve(outsider, packageId)).statusCode).toBe(403); // its creator
    const approved = await approve(admin, packageId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('ready');
  });

  it('the same person correcting twice is one maker; a correction of an event outside the package does not count', async () => {
    const { analyst, second, admin, outsider } = await team();
    const inside = await enter(second);
    const outside = await enter(second);
    await correct(admin, inside, 'Первое исправление');
    await correct(admin, inside, 'Второе исправление');
    await correct(analyst, outside, 'Исправление вне пакета');
    const packageId = await packageOf(outsider, [inside]);
    const forAdmin = (await send('GET', `/api/v1/pledges/packages/${packageId}`, admin)).json();
    expect(forAdmin.approveBlockedReason).toMatch(/которые вы исправляли/);
    const approved = await approve(analyst, packageId);
    expect(approved.statusCode, approved.body).toBe(200);
  });
});

describe('an exclusion archives only what the pledge brought (issue 23, item 7)', () => {
  it('keeps a VIN and a document the user had put on monitoring by form, archives what the pledge added', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const [ownVin, pledgeVin] = [makeVin(), makeVin()];
    const byForm = await send('POST', '/api/v1/monitoring/regular-check/form-vin', admin, {
      rows: [{ vin: ownVin }],
    });
    expect(byForm.statusCode, byForm.body).toBeLessThan(300);
    const body = creationBody([ownVin, pledgeVin], { registrationNumber: null });
    const created = await send('POST', '/api/v1/pledges/events', admin, body);
    expect(created.statusCode, created.body).toBe(201);
    const excluded = await send('POST', '/api/v1/pledges/events', admin, {
      ...body,
      kind: 'exclusion',
      notificationDate: '2025-06-01',
    });
    expect(excluded.statusCode, excluded.body).toBe(201);
    const { rows } = await app.db.query<{ identifier: string; status: string; origin: string }>(
      `SELECT identifier, status, origin FROM monitoring_items WHERE organisation_id = $1 AND kind = 'vin'`,
      [admin.organisationId],
    );
    const byId = Object.fromEntries(rows.map((r) => [r.identifier, r]));
    expect(byId[ownVin]).toMatchObject({ status: 'active', origin: 'form' });
    expect(byId[pledgeVin]).toMatchObject({ status: 'archived', origin: 'pledge' });
    expect(excluded.json().monitoring.archived).toBe(2); // the pledge's VIN and the pledgor's document
  });
});
