import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { recheckItemsJob } from '../checks/jobs/recheck-items.job.ts';
import { processCheckBatch } from '../checks/runs/check-batch.service.ts';
import { listBatchNumbers } from '../checks/runs/runs.queries.ts';
import { planCheckRun, startCheckRun } from '../checks/runs/runs.service.ts';
import { addItems, importRecords } from '../checks/testing/checks-test-helpers.ts';

const { app, config } = await buildTestApp();
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

let serial = 300000 + Math.floor(Math.random() * 100000);
function makeVin(): string {
  const body = `XTA210740P${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

const SBER = { type: 'company', name: 'ПАО Сбербанк', inn: '7707083893', ogrn: '1027700132195' };
const creation = (vin: string, contractNumber = `ДЗ-R-${serial}`) => ({
  kind: 'creation',
  notificationDate: '2025-01-15',
  pledgor: {
    type: 'individual',
    lastName: 'Сидоров',
    firstName: 'Семён',
    middleName: null,
    birthDate: '1981-03-04',
    documentType: 'passport_rf',
    documentNumber: '4506 123456',
  },
  pledgee: SBER,
  contract: { name: 'Договор залога', number: contractNumber, date: '2025-01-15', endDate: '2030-01-15' },
  vehicles: [{ vin, description: 'LADA Granta' }],
});

const send = (method: 'GET' | 'POST' | 'PUT', url: string, user: TestUser, payload?: unknown) =>
  app.inject({ method, url, payload: payload as never, headers: bearer(user.token) });

/** Three people of one organisation: a maker, a checker and an admin. */
async function team() {
  const maker = await createSignedInUser(app, { role: 'analyst' });
  const checker = await createSignedInUser(app, { role: 'analyst', organisationId: maker.organisationId });
  return { maker, checker };
}

/** A package of the events, approved, sent and rejected by the registry with the reason. */
async function rejectedPackage(maker: TestUser, checker: TestUser, eventIds: string[], reason: string) {
  const created = await send('POST', '/api/v1/pledges/packages', maker, { eventIds });
  expect(created.statusCode, created.body).toBe(201);
  const url = `/api/v1/pledges/packages/${created.json().id}`;
  expect((await send('POST', `${url}/transition`, checker, { action: 'approve' })).statusCode).toBe(200);
  expect((await send('POST', `${url}/transition`, maker, { action: 'send' })).statusCode).toBe(200);
  const rejected = await send('POST', `${url}/transition`, maker, { action: 'reject', comment: reason });
  expect(rejected.statusCode, rejected.body).toBe(200);
  return created.json().id as string;
}

describe('a notification the registry rejected', () => {
  it('shows the rejection, can be corrected and goes into a new package; the rejection stays in its history', async () => {
    const { maker, checker } = await team();
    const vin = makeVin();
    const entered = await send('POST', '/api/v1/pledges/events', maker, creation(vin));
    expect(entered.statusCode, entered.body).toBe(201);
    const eventId = entered.json().event.id as string;
    const packageId = await rejectedPackage(maker, checker, [eventId], 'Неверная дата договора');

    const rejected = (await send('GET', `/api/v1/pledges/events/${eventId}`, maker)).json();
    expect(rejected).toMatchObject({
      status: 'rejected',
      statusLabel: 'Отказ реестра',
      canCorrect: true,
      lastRejection: { packageId, reason: 'Неверная дата договора' },
    });
    expect(rejected.rejections).toHaveLength(1);
    expect(rejected.rejections[0].rejectedBy.id).toBe(maker.id);
    expect((await send('GET', `/api/v1/pledges/events?status=rejected`, maker)).json().total).toBe(1);

    // Re-entering the same content is still one notification (409): the way is to correct it.
    expect((await send('POST', '/api/v1/pledges/events', maker, creation(vin))).statusCode).toBe(409);

    const fixed = creation(vin, rejected.contract.number);
    fixed.contract.date = '2025-01-10';
    const corrected = await send('PUT', `/api/v1/pledges/events/${eventId}`, maker, fixed);
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().event).toMatchObject({
      id: eventId,
      status: 'new',
      contract: { date: '2025-01-10' },
      lastRejection: { reason: 'Неверная дата договора' },
    });
    expect(corrected.json().event.correctedAt).not.toBeNull();
    // The pledge follows the corrected notification.
    const { rows } = await app.db.query<{ contract_date: string }>(
      'SELECT contract_date::text FROM pledges WHERE id = $1',
      [rejected.pledge.id],
    );
    expect(rows[0]!.contract_date).toBe('2025-01-10');
    const { rows: audit } = await app.db.query<{ details: { before: { contract: { date: string } } } }>(
      `SELECT details FROM audit_log WHERE entity_id = $1 AND action = 'pledge.corrected'`,
      [eventId],
    );
    expect(audit[0]!.details.before.contract.date).toBe('2025-01-15');

    // A new package takes it; the corrector is one of its makers.
    const again = await send('POST', '/api/v1/pledges/packages', checker, { eventIds: [eventId] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().canApprove).toBe(false);
    const approve = await send('POST', `/api/v1/pledges/packages/${again.json().id}/transition`, maker, {
      action: 'approve',
    });
    expect(approve.statusCode).toBe(403);
    expect(approve.json().message).toContain('внесли вы');

    // The rejected package still lists and counts the event it held.
    const listed = await send('GET', `/api/v1/pledges/events?packageId=${packageId}`, maker);
    expect(listed.json().items.map((e: { id: string }) => e.id)).toEqual([eventId]);
    expect((await send('GET', `/api/v1/pledges/packages/${packageId}`, maker)).json()).toMatchObject({
      status: 'rejected',
      eventsCount: 1,
      kinds: { creation: 1 },
    });
    const history = (await send('GET', `/api/v1/pledges/events/${eventId}`, maker)).json();
    expect(history).toMatchObject({
      status: 'draft',
      rejections: [{ packageId, reason: 'Неверная дата договора' }],
    });
  });

  it('an event of a rejected package goes into a new package as it is', async () => {
    const { maker, checker } = await team();
    const entered = await send('POST', '/api/v1/pledges/events', maker, creation(makeVin()));
    const eventId = entered.json().event.id as string;
    await rejectedPackage(maker, checker, [eventId], 'Отказ');
    const again = await send('POST', '/api/v1/pledges/packages', maker, { eventIds: [eventId] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().eventsCount).toBe(1);
  });

  it('refuses to correct a notification the registry holds or is considering, or to change its kind', async () => {
    const { maker, checker } = await team();
    const vin = makeVin();
    const entered = await send('POST', '/api/v1/pledges/events', maker, creation(vin));
    const event = entered.json().event;
    const wrongKind = await send('PUT', `/api/v1/pledges/events/${event.id}`, maker, {
      ...creation(vin, event.contract.number),
      kind: 'change',
    });
    expect(wrongKind.statusCode).toBe(409);
    expect(wrongKind.json().message).toContain('Вид уведомления при исправлении не меняется');

    const created = await send('POST', '/api/v1/pledges/packages', maker, { eventIds: [event.id] });
    const url = `/api/v1/pledges/packages/${created.json().id}`;
    expect((await send('POST', `${url}/transition`, checker, { action: 'approve' })).statusCode).toBe(200);
    expect((await send('POST', `${url}/transition`, maker, { action: 'send' })).statusCode).toBe(200);
    const refused = await send(
      'PUT',
      `/api/v1/pledges/events/${event.id}`,
      maker,
      creation(vin, event.contract.number),
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PLEDGE_EVENT_NOT_CORRECTABLE' });
    expect(refused.json().message).toContain('«Отправлен»');
    const row = (await send('GET', `/api/v1/pledges/events/${event.id}`, maker)).json();
    expect(row).toMatchObject({ status: 'sent', canCorrect: false, correctedAt: null });
  });
});

describe('a package opened to list its events', () => {
  it('pages its events on the server', async () => {
    const { maker } = await team();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await send('POST', '/api/v1/pledges/events', maker, creation(makeVin()))).json().event.id);
    }
    const other = (await send('POST', '/api/v1/pledges/events', maker, creation(makeVin()))).json().event.id;
    const pkg = (await send('POST', '/api/v1/pledges/packages', maker, { eventIds: ids })).json();
    const page1 = (
      await send('GET', `/api/v1/pledges/events?packageId=${pkg.id}&pageSize=2&page=1`, maker)
    ).json();
    const page2 = (
      await send('GET', `/api/v1/pledges/events?packageId=${pkg.id}&pageSize=2&page=2`, maker)
    ).json();
    expect(page1.total).toBe(3);
    expect(page1.items).toHaveLength(2);
    expect(page2.items).toHaveLength(1);
    const seen = [...page1.items, ...page2.items].map((e: { id: string }) => e.id);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(seen).not.toContain(other);
  });
});

describe('a registered package', () => {
  it('queues a check of its vehicles only, which runs once the organisation has no other run and shows the registry confirming them', async () => {
    const { maker, checker } = await team();
    // Three VINs in identifier order: the package holds the outer two, the middle one is another item.
    const [first, middle, last] = [makeVin(), makeVin(), makeVin()].sort();
    await addItems(app, maker.organisationId, [{ kind: 'vin', identifier: middle! }]);
    const ids: string[] = [];
    for (const vin of [first!, last!]) {
      ids.push((await send('POST', '/api/v1/pledges/events', maker, creation(vin))).json().event.id);
    }
    const pkg = (await send('POST', '/api/v1/pledges/packages', maker, { eventIds: ids })).json();
    const url = `/api/v1/pledges/packages/${pkg.id}`;
    await send('POST', `${url}/transition`, checker, { action: 'approve' });
    await send('POST', `${url}/transition`, maker, { action: 'send' });
    // The registry gave both notifications their numbers (registered means numbered), and the
    // registry's data (the `pledges` dataset, loaded by platform staff) holds the first notice.
    const notice = `2025-002-${String(serial).padStart(6, '0')}-001`;
    const numbers = await send('PUT', `${url}/registration-numbers`, maker, {
      items: [
        { eventId: ids[0], registeredNumber: notice },
        { eventId: ids[1], registeredNumber: `2025-002-${String(serial).padStart(6, '0')}-002` },
      ],
    });
    expect(numbers.statusCode, numbers.body).toBe(200);
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    await importRecords(app, staff.token, 'pledges', [
      {
        vin: first,
        notice_number: notice,
        status: 'active',
        registered_at: '2025-01-16',
        pledgee: 'ПАО Сбербанк',
      },
    ]);
    const queued = async () =>
      (
        await app.db.query<{
          data: { organisationId: string; identifiers: string[]; reason: 'pledge_registered' };
        }>(
          `SELECT data FROM pgboss.job WHERE name = 'checks.recheck-items' AND data->>'organisationId' = $1`,
          [maker.organisationId],
        )
      ).rows.map((row) => row.data);
    expect(await queued()).toEqual([]);
    expect((await send('POST', `${url}/transition`, maker, { action: 'register' })).statusCode).toBe(200);
    const [message] = await queued();
    expect(message).toEqual({
      organisationId: maker.organisationId,
      reason: 'pledge_registered',
      identifiers: [first, last],
    });

    // While another run is unfinished the job fails, to be retried later.
    const manual = await startCheckRun({
      db: app.db,
      config,
      queue: app.queue,
      organisationId: maker.organisationId,
      trigger: 'manual',
      userId: null,
    });
    const job = { id: 'test', data: message!, retryCount: 0, retryLimit: 20 };
    await expect(recheckItemsJob.handler(job, context)).rejects.toThrow(/ещё идёт/);
    await app.db.query(`UPDATE check_runs SET status = 'completed' WHERE id = $1`, [manual.id]);

    await recheckItemsJob.handler(job, context);
    const { rows } = await app.db.query<{ id: string; trigger: string }>(
      `SELECT id, trigger FROM check_runs WHERE organisation_id = $1 AND status = 'queued'`,
      [maker.organisationId],
    );
    expect(rows).toEqual([{ id: expect.any(String), trigger: 'pledge_registered' }]);
    const runId = rows[0]!.id;
    await planCheckRun({ db: app.db, queue: app.queue, runId });
    const batches = await listBatchNumbers(app.db, runId);
    for (const batchNo of batches) {
      await processCheckBatch({ db: app.db, config, queue: app.queue, runId, batchNo, lastAttempt: true });
    }
    const run = (await send('GET', `/api/v1/monitoring/check-runs/${runId}`, maker)).json();
    expect(run).toMatchObject({
      trigger: 'pledge_registered',
      itemsTotal: 2,
      status: expect.stringMatching(/^completed/),
    });
    // The two islands of the scope are two batches; the item between them was not checked.
    expect(batches).toHaveLength(2);
    const { rows: checked } = await app.db.query<{ identifier: string }>(
      `SELECT i.identifier FROM monitoring_item_checks c JOIN monitoring_items i ON i.id = c.item_id
        WHERE i.organisation_id = $1 AND item_last_checked_at(c.item_id) IS NOT NULL ORDER BY 1`,
      [maker.organisationId],
    );
    expect(checked.map((row) => row.identifier)).toEqual([first, last]);
    // The first vehicle's finding is now the registry's own record: confirmed, not «unverified».
    const { rows: snapshot } = await app.db.query<{
      findings: { key: string; payload: Record<string, unknown> }[];
    }>(
      `SELECT findings FROM finding_snapshots WHERE organisation_id = $1 AND source_type = 'pledges' AND identifier = $2`,
      [maker.organisationId, first],
    );
    expect(snapshot[0]!.findings).toHaveLength(1);
    expect(snapshot[0]!.findings[0]).toMatchObject({
      key: notice,
      payload: { notice_number: notice, status: 'active' },
    });
    expect(snapshot[0]!.findings[0]!.payload.verified).toBeUndefined();
    // The re-check's result shows on each notification: found in the registry, or not yet, with its date.
    const [found, notYet] = await Promise.all(
      ids.map(async (id) => (await send('GET', `/api/v1/pledges/events/${id}`, maker)).json()),
    );
    expect(found.registryCheck).toEqual({ checkedAt: expect.any(String), found: true });
    expect(notYet.registryCheck).toEqual({ checkedAt: expect.any(String), found: false });
  });
});
