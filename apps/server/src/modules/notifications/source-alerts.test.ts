import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationRule, SourceAlert } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { sourceAlertsJob } from '../checks/jobs/source-alerts.job.ts';
import { checkSourceAlerts } from '../checks/sources/source-alerts.ts';
import { recordSourceAnswers } from '../checks/sources/sources.queries.ts';
import { deliverNotificationJob } from './jobs/deliver-notification.job.ts';

/** A webhook receiver on loopback that keeps the bodies it got. */
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    response.end('{}');
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

// No SMTP: e-mails land in the outbox, where the test reads what was sent.
const { app, config } = await buildTestApp();
const context = { db: app.db, config, mailer: app.mailer, queue: app.queue, log: app.log };

const createRule = (admin: TestUser, body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/notifications/settings',
    headers: bearer(admin.token),
    payload: { name: 'Источники', method: 'email', recipients: ['ops@bank.test'], ...body },
  });

async function deliveriesOf(ruleId: string) {
  const { rows } = await app.db.query<{ id: string; kind: string; status: string; payload: SourceAlert }>(
    'SELECT id, kind, status, payload FROM notification_deliveries WHERE rule_id = $1 ORDER BY created_at, id',
    [ruleId],
  );
  return rows;
}

/** A batch of the regular run answering (or not) for the source, as the batch code records it. */
const answer = (type: 'wanted' | 'enforcement', ok: boolean, times = 1) =>
  recordSourceAnswers(
    app.db,
    Array.from({ length: times }, () => ({
      type,
      mode: 'batch' as const,
      items: 10,
      ok,
      durationMs: 20,
      error: ok ? null : 'Источник ответил ошибкой 503',
    })),
  );

const tick = () => checkSourceAlerts({ db: app.db, queue: app.queue, config });

describe('source alert rules', () => {
  it('validates the source fields with Russian messages on the exact field', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const bad = await createRule(admin, {
      subject: 'source_failure',
      sourceType: 'nope',
      failureThreshold: 0,
      staleHours: 9000,
      mode: 'daily',
    });
    expect(bad.statusCode).toBe(422);
    const errors = Object.fromEntries(
      bad
        .json<{ fieldErrors: { field: string; message: string }[] }>()
        .fieldErrors.map((e) => [e.field, e.message]),
    );
    expect(errors).toMatchObject({
      sourceType: 'Неизвестный источник',
      failureThreshold: 'Число ошибок подряд — целое от 1 до 100',
      staleHours: 'Срок — целое число часов от 1 до 8760',
    });
    const daily = await createRule(admin, { subject: 'source_stale', mode: 'daily' });
    expect(daily.statusCode).toBe(422);
    expect(daily.json().fieldErrors).toEqual([
      {
        field: 'mode',
        message: 'Оповещения об источниках отправляются сразу: выберите «Сразу по каждому событию»',
      },
    ]);
    const unknown = await createRule(admin, { subject: 'weather' });
    expect(unknown.json().fieldErrors[0]).toMatchObject({
      field: 'subject',
      message: 'Выберите, о чём уведомлять',
    });

    const created = await createRule(admin, {
      subject: 'source_failure',
      sourceType: 'wanted',
      failureThreshold: 5,
    });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json<NotificationRule>();
    expect(rule).toMatchObject({
      subject: 'source_failure',
      sourceType: 'wanted',
      failureThreshold: 5,
      notifyRecovery: true,
    });
    const patched = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { id: rule.id, failureThreshold: 101 },
    });
    expect(patched.statusCode).toBe(422);
    expect(patched.json().fieldErrors[0]).toMatchObject({ field: 'failureThreshold' });
    const { rows } = await app.db.query('SELECT failure_threshold FROM notification_rules WHERE id = $1', [
      rule.id,
    ]);
    expect(rows[0].failure_threshold).toBe(5);
  });

  it('alerts once when failures in a row reach the threshold, not again until the source recovers', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const rule = (
      await createRule(admin, { subject: 'source_failure', sourceType: 'wanted', failureThreshold: 3 })
    ).json<NotificationRule>();
    // An events rule of the same organisation is not a source rule: it gets nothing.
    const eventsRule = (await createRule(admin, { name: 'События' })).json<NotificationRule>();

    const count = async () => (await deliveriesOf(rule.id)).length;
    await answer('wanted', true);
    await answer('wanted', false, 2);
    await tick();
    expect(await count()).toBe(0);
    await answer('wanted', false);
    // Two workers at once (the job and a retry): the rule's lock makes it one alert.
    await Promise.all([tick(), tick()]);
    expect(await count()).toBe(1);
    await answer('wanted', false, 2);
    await tick();
    await tick();
    expect(await count()).toBe(1);
    const [alert] = await deliveriesOf(rule.id);
    expect(alert).toMatchObject({ kind: 'source', status: 'queued' });
    expect(alert!.payload).toMatchObject({
      kind: 'failure',
      sourceType: 'wanted',
      sourceName: 'Розыск',
      consecutiveFailures: 3,
      failureThreshold: 3,
      lastError: 'Источник ответил ошибкой 503',
    });

    // Sent through the same pipeline as events: the delivery log, the channel, exactly once.
    await deliverNotificationJob.handler(
      { id: 'j', data: { deliveryId: alert!.id }, retryCount: 0, retryLimit: 5 },
      context,
    );
    await deliverNotificationJob.handler(
      { id: 'j', data: { deliveryId: alert!.id }, retryCount: 0, retryLimit: 5 },
      context,
    );
    const mails = await app.db.query<{ subject: string; text_body: string }>(
      'SELECT subject, text_body FROM mail_outbox WHERE organisation_id = $1',
      [admin.organisationId],
    );
    expect(mails.rows).toHaveLength(1);
    expect(mails.rows[0]!.subject).toBe('Источник «Розыск» не отвечает: ошибок подряд — 3 — Pledgewatch');
    expect(mails.rows[0]!.text_body).toContain('Последняя ошибка: Источник ответил ошибкой 503');
    expect(mails.rows[0]!.text_body).toMatch(/Обнаружено: \d\d\.\d\d\.\d{4} \d\d:\d\d \(МСК\)/);
    const log = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/notifications/deliveries?ruleId=${rule.id}`,
      headers: bearer(admin.token),
    });
    expect(log.json().items[0]).toMatchObject({
      kind: 'source',
      status: 'sent',
      alert: 'Источник «Розыск» не отвечает: ошибок подряд — 3',
    });

    // Recovery: one message; the next episode alerts again.
    await answer('wanted', true);
    await tick();
    await tick();
    expect(await count()).toBe(2);
    await answer('wanted', false, 3);
    await tick();
    const all = await deliveriesOf(rule.id);
    expect(all.map((d) => d.payload.kind)).toEqual(['failure', 'recovered', 'failure']);
    expect(await deliveriesOf(eventsRule.id)).toEqual([]);
  });

  it('sends no recovery message when the rule does not ask for one; a disabled rule sends nothing', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const quiet = (
      await createRule(admin, { subject: 'source_failure', failureThreshold: 2, notifyRecovery: false })
    ).json<NotificationRule>();
    const off = (
      await createRule(admin, { subject: 'source_failure', failureThreshold: 1, enabled: false })
    ).json<NotificationRule>();
    await answer('enforcement', false, 2);
    await tick();
    await answer('enforcement', true);
    await tick();
    const kinds = (await deliveriesOf(quiet.id)).map((d) => `${d.payload.sourceType}:${d.payload.kind}`);
    expect(kinds).toContain('enforcement:failure');
    expect(kinds).not.toContain('enforcement:recovered');
    expect(await deliveriesOf(off.id)).toEqual([]);
  });

  it('the minute job alerts once when a dataset has not been refreshed for the set hours', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const rule = (
      await createRule(admin, { subject: 'source_stale', sourceType: 'accidents', staleHours: 24 })
    ).json<NotificationRule>();
    // «Any source»: sources never loaded (every other dataset here) are not in use, so no alert.
    const any = (
      await createRule(admin, { subject: 'source_stale', staleHours: 48 })
    ).json<NotificationRule>();
    const imported = await app.db.query<{ id: string }>(
      `INSERT INTO source_imports (source_type, version, file_name, status, activated_at)
       VALUES ('accidents', 1, 'accidents.csv', 'active', now() - interval '30 hours') RETURNING id`,
    );
    const run = () => sourceAlertsJob.handler({ id: 'j', data: {}, retryCount: 0, retryLimit: 0 }, context);
    await run();
    await run();
    const [stale] = await deliveriesOf(rule.id);
    expect(await deliveriesOf(rule.id)).toHaveLength(1);
    expect(stale!.payload).toMatchObject({ kind: 'stale', sourceType: 'accidents', staleHours: 24 });
    expect(await deliveriesOf(any.id)).toEqual([]);

    await app.db.query(`UPDATE source_imports SET activated_at = now() WHERE id = $1`, [
      imported.rows[0]!.id,
    ]);
    await run();
    expect((await deliveriesOf(rule.id)).map((d) => d.payload.kind)).toEqual(['stale', 'refreshed']);
  });

  it('posts the alert to a webhook rule with the same signature and idempotency key as events', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const created = await createRule(admin, {
      subject: 'source_failure',
      sourceType: 'enforcement',
      failureThreshold: 1,
      method: 'webhook',
      recipients: [],
      config: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        secret: 'whsec-0123456789abcdef',
      },
    });
    const rule = created.json<NotificationRule>();
    await answer('enforcement', true);
    await answer('enforcement', false);
    await tick();
    const [delivery] = await deliveriesOf(rule.id);
    await deliverNotificationJob.handler(
      { id: 'j', data: { deliveryId: delivery!.id }, retryCount: 0, retryLimit: 5 },
      context,
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['idempotency-key']).toBe(delivery!.id);
    expect(received[0]!.headers['x-pledgewatch-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      id: delivery!.id,
      kind: 'source',
      rule: { id: rule.id },
      events: [],
      alert: { kind: 'failure', sourceType: 'enforcement', sourceName: 'Исполнительные производства' },
    });
  });

  it('«Отправить тест» of a source rule sends a sample source alert, marked as a test', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const rule = (
      await createRule(admin, { subject: 'source_stale', sourceType: 'bankruptcy', staleHours: 12 })
    ).json<NotificationRule>();
    const test = await app.inject({
      method: 'POST',
      url: `/api/v1/monitoring/notifications/settings/${rule.id}/test`,
      headers: bearer(admin.token),
    });
    expect(test.statusCode).toBe(202);
    const [deliveryId] = test.json<{ deliveryIds: string[] }>().deliveryIds;
    await deliverNotificationJob.handler(
      { id: 'j', data: { deliveryId: deliveryId! }, retryCount: 0, retryLimit: 5 },
      context,
    );
    const mails = await app.db.query<{ subject: string; text_body: string }>(
      'SELECT subject, text_body FROM mail_outbox WHERE organisation_id = $1',
      [admin.organisationId],
    );
    expect(mails.rows[0]!.subject).toBe(
      'Тест: Данные источника «Банкротство» не обновлялись больше 12 ч — Pledgewatch',
    );
    expect(mails.rows[0]!.text_body).toContain('Это тестовое уведомление правила «Источники»');
  });
});
