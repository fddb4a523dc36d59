import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreateNotificationRuleBody, NotificationRule } from '@pledgewatch/contract';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../db/pool.ts';
import { createMailer, type MailMessage } from '../../lib/mailer.ts';
import { registry } from '../../lib/metrics.ts';
import { startSmtpSink } from '../../testing/smtp-sink.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { deliverNotificationJob } from './jobs/deliver-notification.job.ts';
import { notifyEvents, sendDueDigests } from './notifications.service.ts';

// ─── Local receivers: a real SMTP server, a webhook receiver and a fake Telegram Bot API ─────

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function startHttpReceiver() {
  const requests: Received[] = [];
  const state = { status: 200, answer: '{"ok":true}' };
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body });
      response.writeHead(state.status, { 'content-type': 'application/json' });
      response.end(state.answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on: connections are refused, as with a receiver that is down. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

const smtp = await startSmtpSink();
const hooks = await startHttpReceiver();
const telegram = await startHttpReceiver();
afterAll(async () => {
  await smtp.close();
  await hooks.close();
  await telegram.close();
});
const { app, config } = await buildTestApp({ config: { smtpUrl: smtp.url, telegramApiUrl: telegram.url } });

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const SECRET = 'whsec-0123456789abcdef';

// ─── Arranging data ─────────────────────────────────────────────────────────────────────────

let sequence = 0;

async function seedOrganisation(): Promise<{ admin: TestUser; itemId: string; runId: string; vin: string }> {
  const admin = await createSignedInUser(app, { role: 'admin' });
  const vin = `XTA2109900000${String(++sequence).padStart(4, '0')}`;
  const item = await app.db.query<{ id: string }>(
    `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, origin)
     VALUES ($1, 'vin', $2, 'Lada Granta белая', 'КД-2026/0042', 'form') RETURNING id`,
    [admin.organisationId, vin],
  );
  const runId = await insertRun(admin.organisationId, 'completed');
  return { admin, itemId: item.rows[0]!.id, runId, vin };
}

async function insertRun(organisationId: string, status: string): Promise<string> {
  const run = await app.db.query<{ id: string }>(
    `INSERT INTO check_runs (organisation_id, trigger, status, batch_size) VALUES ($1, 'manual', $2, 100) RETURNING id`,
    [organisationId, status],
  );
  return run.rows[0]!.id;
}

async function insertEvent(
  organisation: { admin: TestUser; itemId: string; runId: string },
  event: Partial<{
    type: string;
    severity: string;
    before: object | null;
    after: object | null;
    key: string;
  }> = {},
): Promise<string> {
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity, finding_key,
       before, after, detected_at)
     VALUES ($1, $2, $3, 'registration', $4, $5, $6, $7, $8, '2026-03-12T11:05:00Z') RETURNING id`,
    [
      organisation.admin.organisationId,
      organisation.itemId,
      organisation.runId,
      event.type ?? 'ownership_changed',
      event.severity ?? 'high',
      event.key ?? `REG-${++sequence}`,
      event.before === undefined ? { owner_type: 'Физическое лицо', date: '2025-01-10' } : event.before,
      event.after === undefined ? { owner_type: 'Юридическое лицо', date: '2026-03-11' } : event.after,
    ],
  );
  return rows[0]!.id;
}

async function createRule(
  admin: TestUser,
  body: Partial<CreateNotificationRuleBody>,
): Promise<NotificationRule> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/notifications/settings',
    headers: bearer(admin.token),
    payload: { name: 'Правило', method: 'email', recipients: ['risk@bank.test'], ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NotificationRule>();
}

/** Calls notifyEvents as the checks engine does: inside the transaction that created the events. */
const notify = (organisationId: string, eventIds: string[]) =>
  withTransaction(app.db, (tx) => notifyEvents({ db: tx, queue: app.queue, organisationId, eventIds }));

async function deliveriesOf(ruleId: string) {
  const { rows } = await app.db.query<{
    id: string;
    status: string;
    attempts: number;
    last_error: string | null;
    recipient: string;
    event_ids: string[];
    kind: string;
  }>('SELECT * FROM notification_deliveries WHERE rule_id = $1 ORDER BY created_at, id', [ruleId]);
  return rows;
}

const sentMessages: MailMessage[] = [];
const mailer = createMailer({ smtpUrl: smtp.url, from: config.mailFrom });
afterAll(() => mailer.close());
const context = () => ({
  db: app.db,
  config,
  mailer: {
    ...mailer,
    send: async (message: MailMessage) => {
      sentMessages.push(message);
      await mailer.send(message);
    },
  },
  queue: app.queue,
  log: app.log,
});
const runJob = (deliveryId: string, retryCount = 0, ctx = context()) =>
  deliverNotificationJob.handler({ id: 'job', data: { deliveryId }, retryCount, retryLimit: 5 }, ctx);

// ─── Rules ──────────────────────────────────────────────────────────────────────────────────

describe('notification rules', () => {
  it('creates, lists, changes and deletes a rule; secrets are masked and kept when left empty', async () => {
    const { admin } = await seedOrganisation();
    const rule = await createRule(admin, {
      name: 'Вебхук в СЭД',
      method: 'webhook',
      recipients: [],
      config: { url: 'https://sed.bank.test/hooks?token=abc', secret: SECRET },
      eventTypes: ['wanted_added', 'pledge_registered_other'],
      minSeverity: 'high',
      itemFilter: { label: 'Lada', contractNumber: '' },
    });
    expect(rule).toMatchObject({
      name: 'Вебхук в СЭД',
      enabled: true,
      method: 'webhook',
      mode: 'instant',
      digestHour: 9,
      minSeverity: 'high',
      itemFilter: { label: 'Lada', contractNumber: null },
      config: { url: 'https://sed.bank.test/hooks?token=abc', secret: '••••••••cdef' },
    });

    const list = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
    });
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: rule.id }] });
    expect(list.body).not.toContain(SECRET);

    const patched = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { id: rule.id, enabled: false, config: { url: 'https://sed.bank.test/v2', secret: '' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false, config: { url: 'https://sed.bank.test/v2' } });
    const stored = await app.db.query('SELECT config FROM notification_rules WHERE id = $1', [rule.id]);
    expect(stored.rows[0].config).toEqual({ url: 'https://sed.bank.test/v2', secret: SECRET });

    // Switching to e-mail drops the webhook's config.
    const toEmail = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { id: rule.id, method: 'email', recipients: ['A@Bank.test', 'b@bank.test'] },
    });
    expect(toEmail.json()).toMatchObject({
      method: 'email',
      recipients: ['a@bank.test', 'b@bank.test'],
      config: {},
    });

    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { ids: [rule.id] },
    });
    expect(deleted.json()).toEqual({ deleted: 1 });
    const again = await app.inject({
      method: 'DELETE',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { ids: [rule.id] },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Правило уведомлений не найдено');
  });

  it('rejects bad input with Russian messages on the exact field', async () => {
    const { admin } = await seedOrganisation();
    const post = (payload: object) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(admin.token),
        payload,
      });
    const fields = async (payload: object) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(422);
      return Object.fromEntries(
        response
          .json<{ fieldErrors: { field: string; message: string }[] }>()
          .fieldErrors.map((e) => [e.field, e.message]),
      );
    };

    expect(
      await fields({ name: ' ', method: 'email', recipients: ['ok@bank.test', 'не адрес'] }),
    ).toMatchObject({
      name: 'Обязательное поле',
      'recipients.1': 'Введите корректный адрес электронной почты',
    });
    expect(await fields({ name: 'x', method: 'email', recipients: [] })).toMatchObject({
      recipients: 'Укажите хотя бы один адрес e-mail',
    });
    expect(
      await fields({ name: 'x', method: 'webhook', config: { url: 'ftp://bank.test/x', secret: 'short' } }),
    ).toMatchObject({
      'config.url': 'Введите адрес, начинающийся с https:// или http://',
      'config.secret': 'Секрет — не короче 16 символов',
    });
    expect(
      await fields({ name: 'x', method: 'telegram', config: { botToken: 'abc', chatId: 'my chat' } }),
    ).toMatchObject({
      'config.botToken': 'Неверный токен бота: ожидается вид 123456789:AAH…, как выдаёт @BotFather',
      'config.chatId': 'Неверный идентификатор чата: число (например, -1001234567890) или @имя_канала',
    });
    expect(
      await fields({
        name: 'x',
        method: 'email',
        recipients: ['a@bank.test'],
        mode: 'daily',
        digestHour: 24,
      }),
    ).toMatchObject({ digestHour: 'Час — целое число от 0 до 23' });
    expect(
      await fields({ name: 'x', method: 'email', recipients: ['a@bank.test'], eventTypes: ['nope'] }),
    ).toHaveProperty('eventTypes.0');

    // PATCH validates the merged rule: a webhook without a stored secret needs one.
    const rule = await createRule(admin, {});
    const patch = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { id: rule.id, method: 'webhook', config: { url: 'https://bank.test/hook' } },
    });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().fieldErrors).toEqual([{ field: 'config.secret', message: 'Обязательное поле' }]);
  });

  it('lets analysts and viewers read but not change rules', async () => {
    const { admin } = await seedOrganisation();
    const rule = await createRule(admin, {});
    for (const role of ['analyst', 'viewer'] as const) {
      const user = await createSignedInUser(app, { role, organisationId: admin.organisationId });
      const read = await app.inject({
        method: 'GET',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(user.token),
      });
      expect(read.json().items).toHaveLength(1);
      const methods = await app.inject({
        method: 'GET',
        url: '/api/v1/monitoring/notifications/methods-additional',
        headers: bearer(user.token),
      });
      expect(methods.statusCode).toBe(200);
      const deliveries = await app.inject({
        method: 'GET',
        url: '/api/v1/monitoring/notifications/deliveries',
        headers: bearer(user.token),
      });
      expect(deliveries.statusCode).toBe(200);
      const writes = [
        { method: 'POST' as const, url: '/api/v1/monitoring/notifications/settings', payload: { name: 'x' } },
        {
          method: 'PATCH' as const,
          url: '/api/v1/monitoring/notifications/settings',
          payload: { id: rule.id },
        },
        {
          method: 'DELETE' as const,
          url: '/api/v1/monitoring/notifications/settings',
          payload: { ids: [rule.id] },
        },
        {
          method: 'POST' as const,
          url: `/api/v1/monitoring/notifications/settings/${rule.id}/test`,
          payload: {},
        },
      ];
      for (const write of writes) {
        const response = await app.inject({ ...write, headers: bearer(user.token) });
        expect(response.statusCode, `${role} ${write.method} ${write.url}`).toBe(403);
      }
    }
    const other = await createSignedInUser(app, { role: 'admin' });
    const foreign = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(other.token),
      payload: { id: rule.id, enabled: false },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('describes the additional methods and their fields in Russian', async () => {
    const { admin } = await seedOrganisation();
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/notifications/methods-additional',
      headers: bearer(admin.token),
    });
    const items = response.json<{ items: { method: string; label: string; fields: { name: string }[] }[] }>()
      .items;
    expect(items.map((m) => [m.method, m.fields.map((f) => f.name)])).toEqual([
      ['webhook', ['url', 'secret']],
      ['telegram', ['botToken', 'chatId']],
    ]);
    expect(items[1]!.label).toBe('Telegram-бот');
  });
});

// ─── Delivery ───────────────────────────────────────────────────────────────────────────────

describe('notification delivery', () => {
  it('mails the change itself over SMTP, enqueued in the same transaction as the events', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      name: 'Риски',
      recipients: ['risk@bank.test', 'boss@bank.test'],
    });
    const eventId = await insertEvent(org);

    // Rolled back with the events: nothing remains.
    await withTransaction(app.db, async (tx) => {
      await notifyEvents({
        db: tx,
        queue: app.queue,
        organisationId: org.admin.organisationId,
        eventIds: [eventId],
      });
      throw new Error('rollback');
    }).catch(() => {});
    expect(await deliveriesOf(rule.id)).toHaveLength(0);

    await notify(org.admin.organisationId, [eventId]);
    await notify(org.admin.organisationId, [eventId]); // a repeated call adds nothing
    const deliveries = await deliveriesOf(rule.id);
    expect(deliveries.map((d) => d.recipient).sort()).toEqual(['boss@bank.test', 'risk@bank.test']);
    const jobs = await app.db.query(
      `SELECT data->>'deliveryId' AS id FROM pgboss.job WHERE name = 'notifications.deliver' AND data->>'deliveryId' = ANY($1)`,
      [deliveries.map((d) => d.id)],
    );
    expect(jobs.rows).toHaveLength(2);

    const delivery = deliveries.find((d) => d.recipient === 'risk@bank.test')!;
    await runJob(delivery.id);
    const mail = await smtp.waitFor((m) => m.to.includes('risk@bank.test') && m.subject.includes(org.vin));
    expect(mail.subject).toBe(`[Высокая] Смена владельца: ${org.vin} — Pledgewatch`);
    expect(mail.text).toContain('Новое событие по правилу «Риски»');
    expect(mail.text).toContain(`Объект: VIN ${org.vin}, Lada Granta белая, договор КД-2026/0042`);
    expect(mail.text).toContain('Источник: Регистрационные действия');
    expect(mail.text).toContain('Обнаружено: 12.03.2026 14:05 (МСК)');
    expect(mail.text).toContain('Владелец: Физическое лицо → Юридическое лицо');
    expect(mail.text).toContain('Дата: 10.01.2025 → 11.03.2026');
    expect(mail.text).toContain(
      `http://pledgewatch.test/monitoring/items?entity=vin&search=${org.vin}&item=${org.itemId}&event=${eventId}`,
    );
    expect(mail.html).toContain('<th style="text-align:left;padding:4px 8px">Было</th>');
    expect(sentMessages.at(-1)?.messageId).toBe(`<${delivery.id}@notifications.pledgewatch>`);
    expect((await deliveriesOf(rule.id)).find((d) => d.id === delivery.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      last_error: null,
    });
  });

  it('signs webhook calls with HMAC-SHA256 over timestamp and body, with an idempotency key', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      method: 'webhook',
      recipients: [],
      config: { url: `${hooks.url}/hook?token=receiver-token`, secret: SECRET },
    });
    const eventId = await insertEvent(org, {
      type: 'wanted_added',
      severity: 'critical',
      before: null,
      after: { record_id: 'W-1', region: '77' },
    });
    await notify(org.admin.organisationId, [eventId]);
    const [delivery] = await deliveriesOf(rule.id);
    expect(delivery!.recipient).toBe(`${hooks.url}/hook`);
    const before = hooks.requests.length;
    // The delivery counts on /metrics by channel and outcome.
    const sentWebhooks = async () =>
      (await registry.getSingleMetric('pledgewatch_notification_deliveries_total')!.get()).values.find(
        (value) => value.labels.channel === 'webhook' && value.labels.outcome === 'sent',
      )?.value ?? 0;
    const sentBefore = await sentWebhooks();
    await runJob(delivery!.id);
    expect(hooks.requests).toHaveLength(before + 1);
    expect(await sentWebhooks()).toBe(sentBefore + 1);
    const request = hooks.requests.at(-1)!;
    expect(request.path).toBe('/hook?token=receiver-token');
    expect(request.headers['idempotency-key']).toBe(delivery!.id);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-pledgewatch-signature']));
    expect(match).not.toBeNull();
    const [, timestamp, signature] = match!;
    expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(60);
    const expected = createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex');
    expect(signature).toBe(expected);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      id: delivery!.id,
      kind: 'event',
      rule: { id: rule.id },
      events: [
        {
          id: eventId,
          type: 'wanted_added',
          typeLabel: 'Объявлен в розыск',
          severity: 'critical',
          before: null,
          after: { record_id: 'W-1', region: '77' },
          item: { identifier: org.vin, label: 'Lada Granta белая', contractNumber: 'КД-2026/0042' },
        },
      ],
    });
  });

  it('a webhook sent just before the database went away is recorded once it is back, not sent again', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      method: 'webhook',
      recipients: [],
      config: { url: `${hooks.url}/blip`, secret: SECRET },
    });
    const eventId = await insertEvent(org, { type: 'wanted_added', severity: 'critical' });
    await notify(org.admin.organisationId, [eventId]);
    const [delivery] = await deliveriesOf(rule.id);
    // Everything works but the "sent" mark, which meets a lost connection twice.
    let failures = 0;
    const flaky = {
      query: (...args: Parameters<pg.Pool['query']>) => {
        if (/SET status = 'sent'/.test(String(args[0])) && failures < 2) {
          failures++;
          return Promise.reject(
            Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
          );
        }
        return app.db.query(...args);
      },
    } as unknown as pg.Pool;
    const received = () => hooks.requests.filter((request) => request.path === '/blip').length;
    await runJob(delivery!.id, 0, { ...context(), db: flaky });
    expect(failures).toBe(2);
    expect((await deliveriesOf(rule.id))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    // The queue's retry (had the job been failed meanwhile) finds it sent and sends nothing.
    await runJob(delivery!.id, 1);
    expect(received()).toBe(1);
  });

  it('retries while the receiver is down, delivers once it is back, and loses nothing', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      method: 'webhook',
      recipients: [],
      config: { url: `${hooks.url}/flaky`, secret: SECRET },
    });
    const eventIds = [await insertEvent(org), await insertEvent(org)];
    await notify(org.admin.organisationId, eventIds);
    const deliveries = await deliveriesOf(rule.id);
    expect(deliveries).toHaveLength(2);

    hooks.state.status = 503;
    hooks.state.answer = 'Service Unavailable';
    for (const delivery of deliveries) {
      await expect(runJob(delivery.id, 0)).rejects.toThrow('Получатель ответил HTTP 503');
      await expect(runJob(delivery.id, 1)).rejects.toThrow();
    }
    expect(await deliveriesOf(rule.id)).toEqual(
      deliveries.map(() =>
        expect.objectContaining({
          status: 'retrying',
          attempts: 2,
          // The status only: the receiver's body never reaches the log.
          last_error: 'Получатель ответил HTTP 503',
        }),
      ),
    );

    hooks.state.status = 200;
    hooks.state.answer = '{"ok":true}';
    for (const delivery of deliveries) {
      await runJob(delivery.id, 2);
    }
    expect(await deliveriesOf(rule.id)).toEqual(
      deliveries.map(() => expect.objectContaining({ status: 'sent', attempts: 3, last_error: null })),
    );
    const delivered = hooks.requests
      .filter((r) => r.path === '/flaky')
      .map((r) => JSON.parse(r.body).events[0].id as string);
    expect(new Set(delivered)).toEqual(new Set(eventIds));
  });

  it('ends failed after the last try, with the reason in the log', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      method: 'webhook',
      recipients: [],
      config: { url: await closedPort(), secret: SECRET },
    });
    await notify(org.admin.organisationId, [await insertEvent(org)]);
    const [delivery] = await deliveriesOf(rule.id);
    await expect(runJob(delivery!.id, 4)).rejects.toThrow('Не удалось соединиться с адресом');
    expect((await deliveriesOf(rule.id))[0]).toMatchObject({ status: 'retrying' });
    await expect(runJob(delivery!.id, 5)).rejects.toThrow('Не удалось соединиться с адресом');
    expect((await deliveriesOf(rule.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_error: 'Не удалось соединиться с адресом',
    });
    // A late duplicate of the job does nothing.
    await runJob(delivery!.id, 5);
    expect((await deliveriesOf(rule.id))[0]).toMatchObject({ status: 'failed', attempts: 2 });

    const log = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/notifications/deliveries?status=failed&ruleId=${rule.id}`,
      headers: bearer(org.admin.token),
    });
    expect(log.json()).toMatchObject({
      total: 1,
      items: [
        {
          id: delivery!.id,
          ruleName: 'Правило',
          method: 'webhook',
          status: 'failed',
          attempts: 2,
          maxAttempts: 6,
          lastError: 'Не удалось соединиться с адресом',
          event: { typeLabel: 'Смена владельца', identifier: org.vin },
        },
      ],
    });
  });

  it('sends a delivery once when its job runs twice, and resends with the same key after a dead worker', async () => {
    const org = await seedOrganisation();
    const address = `once-${Date.now()}@bank.test`;
    const rule = await createRule(org.admin, { recipients: [address] });
    await notify(org.admin.organisationId, [await insertEvent(org)]);
    const [delivery] = await deliveriesOf(rule.id);
    await runJob(delivery!.id);
    await runJob(delivery!.id);
    await smtp.waitFor((m) => m.to.includes(address));
    expect(smtp.mails.filter((m) => m.to.includes(address))).toHaveLength(1);

    const hookRule = await createRule(org.admin, {
      method: 'webhook',
      recipients: [],
      config: { url: `${hooks.url}/dead-worker`, secret: SECRET },
    });
    await notify(org.admin.organisationId, [await insertEvent(org)]);
    const [hookDelivery] = await deliveriesOf(hookRule.id);
    // A worker took it and is still within its lease: nobody else sends.
    await app.db.query(
      `UPDATE notification_deliveries SET status = 'sending', attempts = 1, lease_until = now() + interval '1 minute' WHERE id = $1`,
      [hookDelivery!.id],
    );
    await expect(runJob(hookDelivery!.id, 1)).rejects.toThrow('Доставка уже выполняется');
    expect(hooks.requests.filter((r) => r.path === '/dead-worker')).toHaveLength(0);
    // That worker died after sending, before recording: its lease runs out, the retry sends again
    // with the same Idempotency-Key, so the receiver can drop the duplicate.
    await app.db.query(
      `UPDATE notification_deliveries SET lease_until = now() - interval '1 second' WHERE id = $1`,
      [hookDelivery!.id],
    );
    await runJob(hookDelivery!.id, 1);
    await runJob(hookDelivery!.id, 2);
    const calls = hooks.requests.filter((r) => r.path === '/dead-worker');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers['idempotency-key']).toBe(hookDelivery!.id);
    expect((await deliveriesOf(hookRule.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('posts to Telegram through the configured Bot API and shows its refusal in the log', async () => {
    const org = await seedOrganisation();
    const rule = await createRule(org.admin, {
      method: 'telegram',
      recipients: [],
      config: { botToken: BOT_TOKEN, chatId: '-1001234567890' },
    });
    expect(rule.config.botToken).toBe('••••••••Dsaw');
    await notify(org.admin.organisationId, [await insertEvent(org)]);
    const [delivery] = await deliveriesOf(rule.id);
    expect(delivery!.recipient).toBe('Telegram -1001234567890');
    await runJob(delivery!.id);
    const call = telegram.requests.at(-1)!;
    expect(call.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({ chat_id: '-1001234567890', parse_mode: 'HTML' });
    expect(body.text).toContain('Смена владельца');
    expect(body.text).toContain(`VIN ${org.vin}`);
    expect(body.text).toContain('Владелец: Физическое лицо → Юридическое лицо');

    telegram.state.status = 400;
    telegram.state.answer = JSON.stringify({ ok: false, description: 'Bad Request: chat not found' });
    await notify(org.admin.organisationId, [await insertEvent(org)]);
    const second = (await deliveriesOf(rule.id)).find((d) => d.status === 'queued')!;
    await expect(runJob(second.id, 5)).rejects.toThrow();
    expect((await deliveriesOf(rule.id)).find((d) => d.id === second.id)).toMatchObject({
      status: 'failed',
      last_error: 'Telegram ответил HTTP 400: Bad Request: chat not found',
    });
    telegram.state.status = 200;
    telegram.state.answer = '{"ok":true}';
  });

  it('matches event types, severity and the item filter; ignores disabled rules', async () => {
    const org = await seedOrganisation();
    const typed = await createRule(org.admin, { eventTypes: ['wanted_added'] });
    const severe = await createRule(org.admin, { minSeverity: 'critical' });
    const labelled = await createRule(org.admin, { itemFilter: { label: 'granta', contractNumber: '0042' } });
    const otherLabel = await createRule(org.admin, { itemFilter: { label: 'Камаз', contractNumber: null } });
    const disabled = await createRule(org.admin, { enabled: false });
    await notify(org.admin.organisationId, [
      await insertEvent(org, { type: 'ownership_changed', severity: 'high' }),
    ]);
    expect(await deliveriesOf(typed.id)).toHaveLength(0);
    expect(await deliveriesOf(severe.id)).toHaveLength(0);
    expect(await deliveriesOf(labelled.id)).toHaveLength(1);
    expect(await deliveriesOf(otherLabel.id)).toHaveLength(0);
    expect(await deliveriesOf(disabled.id)).toHaveLength(0);
    await notify(org.admin.organisationId, [
      await insertEvent(org, { type: 'wanted_added', severity: 'critical' }),
    ]);
    expect(await deliveriesOf(typed.id)).toHaveLength(1);
    expect(await deliveriesOf(severe.id)).toHaveLength(1);
  });

  it('never delivers the events of another organisation', async () => {
    const mine = await seedOrganisation();
    const theirs = await seedOrganisation();
    const rule = await createRule(mine.admin, {});
    const foreignEvent = await insertEvent(theirs);
    // Their ids passed with our organisation are not found; their organisation has no rules of ours.
    await notify(mine.admin.organisationId, [foreignEvent]);
    await notify(theirs.admin.organisationId, [foreignEvent]);
    expect(await deliveriesOf(rule.id)).toHaveLength(0);
    const log = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/notifications/deliveries',
      headers: bearer(theirs.admin.token),
    });
    expect(log.json().total).toBe(0);
  });
});

// ─── Digests and the test button ───────────────────────────────────────────────────────────

describe('digests', () => {
  it('groups the day’s events into one mail per rule at the Moscow hour, once a day', async () => {
    const org = await seedOrganisation();
    const address = `daily-${Date.now()}@bank.test`;
    const rule = await createRule(org.admin, { recipients: [address], mode: 'daily', digestHour: 9 });
    const eventIds = [
      await insertEvent(org),
      await insertEvent(org, {
        type: 'accident_recorded',
        severity: 'high',
        before: null,
        after: { damage: 'Передний бампер' },
      }),
      await insertEvent(org, { type: 'restriction_added', before: null, after: { kind: 'Запрет' } }),
    ];
    await notify(org.admin.organisationId, eventIds);
    expect(await deliveriesOf(rule.id)).toHaveLength(0);

    // 08:30 in Moscow: not yet.
    await sendDueDigests({ db: app.db, queue: app.queue, now: new Date('2026-03-12T05:30:00Z') });
    expect(await deliveriesOf(rule.id)).toHaveLength(0);
    // 09:10 in Moscow: one digest with the three events; again in the same day: nothing more.
    await sendDueDigests({ db: app.db, queue: app.queue, now: new Date('2026-03-12T06:10:00Z') });
    await sendDueDigests({ db: app.db, queue: app.queue, now: new Date('2026-03-12T07:10:00Z') });
    const deliveries = await deliveriesOf(rule.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'digest', recipient: address });
    expect([...deliveries[0]!.event_ids].sort()).toEqual([...eventIds].sort());

    await runJob(deliveries[0]!.id);
    const mail = await smtp.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toMatch(/^Сводка событий за \d\d\.\d\d\.\d{4}: 3 — Pledgewatch$/);
    expect(mail.text).toContain('Смена владельца');
    expect(mail.text).toContain('Зарегистрировано ДТП');
    expect(mail.text).toContain('Наложено ограничение');
    expect(mail.text).toContain('Повреждения: — → Передний бампер');
    expect(smtp.mails.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it('sends one digest per check run once the run has finished', async () => {
    const org = await seedOrganisation();
    const address = `run-${Date.now()}@bank.test`;
    const rule = await createRule(org.admin, { recipients: [address], mode: 'run' });
    const runId = await insertRun(org.admin.organisationId, 'running');
    const events = [await insertEvent({ ...org, runId }), await insertEvent({ ...org, runId })];
    await notify(org.admin.organisationId, events);
    await sendDueDigests({ db: app.db, queue: app.queue });
    expect(await deliveriesOf(rule.id)).toHaveLength(0);

    await app.db.query(`UPDATE check_runs SET status = 'completed', finished_at = now() WHERE id = $1`, [
      runId,
    ]);
    await sendDueDigests({ db: app.db, queue: app.queue });
    await sendDueDigests({ db: app.db, queue: app.queue });
    const deliveries = await deliveriesOf(rule.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.event_ids).toHaveLength(2);
    await runJob(deliveries[0]!.id);
    const mail = await smtp.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toContain('Сводка событий по итогам проверки');
    expect(mail.text.match(/Смена владельца/g)).toHaveLength(2);
  });

  it('sends a test through the real channel and lists it in the delivery log', async () => {
    const org = await seedOrganisation();
    const address = `test-${Date.now()}@bank.test`;
    const rule = await createRule(org.admin, { name: 'Проверочное', recipients: [address] });
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/monitoring/notifications/settings/${rule.id}/test`,
      headers: bearer(org.admin.token),
    });
    expect(response.statusCode).toBe(202);
    const [deliveryId] = response.json<{ deliveryIds: string[] }>().deliveryIds;
    await runJob(deliveryId!);
    const mail = await smtp.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toBe('Тестовое уведомление «Проверочное» — Pledgewatch');
    expect(mail.text).toContain('Наложено ограничение');

    const viewer = await createSignedInUser(app, {
      role: 'viewer',
      organisationId: org.admin.organisationId,
    });
    const log = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/notifications/deliveries?page=1&pageSize=10&status=sent',
      headers: bearer(viewer.token),
    });
    expect(log.json()).toMatchObject({
      total: 1,
      items: [{ id: deliveryId, kind: 'test', recipient: address, status: 'sent', attempts: 1, event: null }],
    });
  });
});
