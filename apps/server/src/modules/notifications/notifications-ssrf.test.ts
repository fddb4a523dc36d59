import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationRuleInput } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../config/env.ts';
import { createMailer } from '../../lib/mailer.ts';
import { parseAllowedRanges } from '../../lib/outbound/address-policy.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { deliverNotificationJob } from './jobs/deliver-notification.job.ts';
import { insertRule } from './notifications.queries.ts';

/**
 * Server-side request forgery through webhooks: an app with the default configuration (no private
 * range allowed), unlike the other tests' apps, which allow loopback for their local receivers.
 */

// A receiver on loopback that must never hear from the strict app. /redirect points back at /secret.
const received: { path: string; body: string }[] = [];
const receiver = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({ path: request.url ?? '', body });
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
      response.end('Moved');
    } else if (request.url === '/secret') {
      response.end('{"AccessKeyId":"ASIA-INTERNAL","SecretAccessKey":"internal-secret"}');
    } else {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('Internal error: db password is hunter2 at 10.0.0.5:5432');
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const port = (receiver.address() as AddressInfo).port;
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const { app, config } = await buildTestApp({ config: { outboundAllowedRanges: [] } });
const mailer = createMailer({ from: config.mailFrom });
afterAll(() => mailer.close());

const SECRET = 'whsec-0123456789abcdef';

const runJob = (deliveryId: string, retryCount = 0, jobConfig: AppConfig = config) =>
  deliverNotificationJob.handler(
    { id: 'job', data: { deliveryId }, retryCount, retryLimit: 5 },
    { db: app.db, config: jobConfig, mailer, queue: app.queue, log: app.log },
  );

const saveRule = (admin: TestUser, url: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/notifications/settings',
    headers: bearer(admin.token),
    payload: { name: 'Вебхук', method: 'webhook', recipients: [], config: { url, secret: SECRET } },
  });

const rulesOf = async (organisationId: string) =>
  (
    await app.db.query<{ id: string; config: Record<string, string> }>(
      'SELECT id, config FROM notification_rules WHERE organisation_id = $1',
      [organisationId],
    )
  ).rows;

/** A rule stored as it was before this check existed (or whose host has since moved inside). */
async function storedWebhookRule(admin: TestUser, url: string): Promise<string> {
  const rule: NotificationRuleInput = {
    name: 'Старое правило',
    enabled: true,
    eventTypes: [],
    minSeverity: 'low',
    itemFilter: { label: null, contractNumber: null },
    subject: 'events',
    sourceType: null,
    failureThreshold: 3,
    staleHours: 24,
    notifyRecovery: true,
    method: 'webhook',
    recipients: [],
    config: { url, secret: SECRET },
    mode: 'instant',
    digestHour: 9,
  };
  return insertRule(app.db, admin.organisationId, admin.id, rule);
}

async function sendTest(admin: TestUser, ruleId: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/monitoring/notifications/settings/${ruleId}/test`,
    headers: bearer(admin.token),
  });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ deliveryIds: string[] }>().deliveryIds[0]!;
}

async function deliveryRow(id: string) {
  const { rows } = await app.db.query<{ status: string; attempts: number; last_error: string | null }>(
    'SELECT status, attempts, last_error FROM notification_deliveries WHERE id = $1',
    [id],
  );
  return rows[0];
}

describe('webhook addresses at save time', () => {
  it.each([
    ['http://127.0.0.1:PORT/hook', '127.0.0.1'],
    ['http://localhost:PORT/hook', 'localhost'],
    ['http://0.0.0.0:PORT/hook', '0.0.0.0'],
    ['http://0:PORT/hook', '0.0.0.0'],
    ['http://2130706433:PORT/hook', '127.0.0.1'],
    ['http://0x7f.1:PORT/hook', '127.0.0.1'],
    ['http://017700000001:PORT/hook', '127.0.0.1'],
    ['http://127.1:PORT/hook', '127.0.0.1'],
    ['http://[::1]:PORT/hook', '[::1]'],
    ['http://[::ffff:127.0.0.1]:PORT/hook', '[::ffff:7f00:1]'],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/latest/meta-data/', '[fd00:ec2::254]'],
    ['http://10.0.0.5:5432/', '10.0.0.5'],
    ['https://172.16.0.1/hook', '172.16.0.1'],
    ['https://192.168.1.1/hook', '192.168.1.1'],
    ['https://100.64.0.1/hook', '100.64.0.1'],
    ['https://[fe80::1]/hook', '[fe80::1]'],
    ['https://[fc00::1]/hook', '[fc00::1]'],
    ['https://224.0.0.1/hook', '224.0.0.1'],
  ])('refuses %s with a Russian 422 on config.url and saves nothing', async (template, shown) => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const response = await saveRule(admin, template.replace('PORT', String(port)));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      statusCode: 422,
      code: 'URL_NOT_ALLOWED',
      message: 'Этот адрес нельзя использовать: он ведёт во внутреннюю сеть или задан неверно',
      fieldErrors: [
        {
          field: 'config.url',
          message: `Адрес указывает на внутреннюю сеть (${shown}). Такие адреса запрещены`,
        },
      ],
    });
    expect(await rulesOf(admin.organisationId)).toEqual([]);
    expect(received).toEqual([]);
  });

  it('refuses the change of a rule to an internal address and keeps the stored one', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: { name: 'Почта', method: 'email', recipients: ['risk@bank.test'] },
    });
    const id = created.json<{ id: string }>().id;
    for (const patch of [
      { method: 'webhook', config: { url: `http://127.0.0.1:${port}/hook`, secret: SECRET } },
      { method: 'webhook', config: { url: 'http://[::ffff:169.254.169.254]/', secret: SECRET } },
    ]) {
      const response = await app.inject({
        method: 'PATCH',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(admin.token),
        payload: { id, ...patch },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().fieldErrors[0].field).toBe('config.url');
    }
    const [stored] = await rulesOf(admin.organisationId);
    expect(stored?.config).toEqual({});
    expect(received).toEqual([]);
  });
});

describe('rules saved before the check', () => {
  it('can still be switched off and renamed, but not pointed at another internal address', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const id = await storedWebhookRule(admin, 'http://169.254.169.254/latest/meta-data/');
    const patch = (body: object) =>
      app.inject({
        method: 'PATCH',
        url: '/api/v1/monitoring/notifications/settings',
        headers: bearer(admin.token),
        payload: { id, ...body },
      });
    const off = await patch({ enabled: false, name: 'Отключено' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, name: 'Отключено' });
    const moved = await patch({ config: { url: 'http://10.0.0.1/', secret: '' } });
    expect(moved.statusCode).toBe(422);
    expect((await rulesOf(admin.organisationId))[0]?.config.url).toBe(
      'http://169.254.169.254/latest/meta-data/',
    );
  });
});

describe('webhook addresses at send time', () => {
  it('refuses a stored rule whose address is internal: failed at once, nothing sent, no retries', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    for (const url of [`http://127.0.0.1:${port}/hook`, 'http://169.254.169.254/latest/meta-data/']) {
      const ruleId = await storedWebhookRule(admin, url);
      const deliveryId = await sendTest(admin, ruleId);
      // A permanent failure: the job does not throw, so pg-boss does not retry it.
      await runJob(deliveryId, 0);
      const shown = new URL(url).hostname;
      expect(await deliveryRow(deliveryId)).toEqual({
        status: 'failed',
        attempts: 1,
        last_error: `Адрес указывает на внутреннюю сеть (${shown}). Такие адреса запрещены`,
      });
    }
    expect(received).toEqual([]);
  });

  it('keeps only the status in the log, never the receiver’s body', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const ruleId = await storedWebhookRule(admin, `http://127.0.0.1:${port}/hook`);
    const deliveryId = await sendTest(admin, ruleId);
    const allowLoopback = { ...config, outboundAllowedRanges: parseAllowedRanges('127.0.0.0/8') };
    await expect(runJob(deliveryId, 0, allowLoopback)).rejects.toThrow('Получатель ответил HTTP 500');
    expect(received.at(-1)?.path).toBe('/hook');
    const log = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/notifications/deliveries?ruleId=${ruleId}`,
      headers: bearer(admin.token),
    });
    expect(log.json().items[0]).toMatchObject({
      status: 'retrying',
      lastError: 'Получатель ответил HTTP 500',
    });
    expect(log.body).not.toContain('hunter2');
  });

  it('does not follow a redirect from an allowed receiver to an internal address', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const ruleId = await storedWebhookRule(admin, `http://127.0.0.1:${port}/redirect`);
    const deliveryId = await sendTest(admin, ruleId);
    received.length = 0;
    const allowLoopback = { ...config, outboundAllowedRanges: parseAllowedRanges('127.0.0.0/8') };
    await expect(runJob(deliveryId, 0, allowLoopback)).rejects.toThrow('перенаправления не выполняются');
    expect(received.map((request) => request.path)).toEqual(['/redirect']);
    expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'retrying',
      last_error: 'Получатель ответил перенаправлением (HTTP 302); перенаправления не выполняются',
    });
  });
});

describe('migration 0010', () => {
  it('strips receivers’ bodies and port-revealing texts from the existing log', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const ruleId = await storedWebhookRule(admin, 'https://hooks.bank.example/in');
    const ids: string[] = [];
    const before = [
      'Получатель ответил HTTP 500: {"AccessKeyId":"ASIA-INTERNAL"}',
      'Соединение отклонено (ECONNREFUSED)',
      'Соединение разорвано (ECONNRESET)',
      'Ошибка соединения (EHOSTUNREACH)',
      'Нет ответа за 10 с',
      'Telegram: Соединение отклонено (ECONNREFUSED)',
      'Telegram ответил HTTP 400: Bad Request: chat not found',
      'Правило удалено — уведомление не отправлено',
    ];
    for (const lastError of before) {
      const deliveryId = await sendTest(admin, ruleId);
      await app.db.query(
        `UPDATE notification_deliveries SET status = 'failed', last_error = $2 WHERE id = $1`,
        [deliveryId, lastError],
      );
      ids.push(deliveryId);
    }
    const sql = await readFile(
      new URL('../../db/migrations/0010_delivery_log_without_remote_bodies.sql', import.meta.url),
      'utf8',
    );
    await app.db.query(sql);
    const { rows } = await app.db.query<{ id: string; last_error: string }>(
      'SELECT id, last_error FROM notification_deliveries WHERE id = ANY($1)',
      [ids],
    );
    const after = ids.map((id) => rows.find((row) => row.id === id)?.last_error);
    expect(after).toEqual([
      'Получатель ответил HTTP 500',
      'Не удалось соединиться с адресом',
      'Не удалось соединиться с адресом',
      'Не удалось соединиться с адресом',
      'Не удалось соединиться с адресом',
      'Telegram: Не удалось соединиться с адресом',
      'Telegram ответил HTTP 400: Bad Request: chat not found',
      'Правило удалено — уведомление не отправлено',
    ]);
  });
});
