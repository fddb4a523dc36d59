import http from 'node:http';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../db/embedded.ts';
import {
  ApiClient,
  type FaultPostgres,
  faultPool,
  report,
  seedOrganisation,
  sleep,
  startApp,
  startFaultPostgres,
  tempDir,
  waitFor,
} from '../testing/fault-harness.ts';
import { type SmtpSink, startSmtpSink } from '../testing/smtp-sink.ts';

/**
 * Outages of what the app depends on, under traffic: PostgreSQL stopped and started again; the SMTP
 * server and a webhook target down for longer than the first retries, then back.
 */
const UNAVAILABLE = 'Сервис временно недоступен: нет связи с базой данных. Повторите через минуту';

let postgres: FaultPostgres;
let url: string;
let db: pg.Pool;
let smtpPort: number;
let smtp: SmtpSink | undefined;
let app: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  postgres = await startFaultPostgres();
  url = await postgres.createDatabase('faults_outages');
  db = faultPool(url, 2);
  db.on('error', () => {});
  smtpPort = await findFreePort();
  smtp = await startSmtpSink(smtpPort);
  app = await startApp({
    DATABASE_URL: url,
    DATA_DIR: await tempDir('data'),
    WORKERS: 'true',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
});
afterAll(async () => {
  await app?.kill('SIGTERM');
  await smtp?.close();
  await db?.end();
});

async function signedIn(role: 'admin' | 'analyst' = 'admin') {
  const org = await seedOrganisation(url, [{ role }]);
  const api = new ApiClient(app.url);
  await api.signIn(org.users[0]!.email, org.users[0]!.password);
  return { org, api, user: org.users[0]! };
}

/** A webhook receiver on loopback that counts what it received by idempotency key; closable. */
async function startWebhookReceiver(port: number) {
  const received = new Map<string, number>();
  let server: http.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          const key = String(request.headers['idempotency-key'] ?? '');
          received.set(key, (received.get(key) ?? 0) + 1);
          response.writeHead(200).end('ok');
        });
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server) {
        resolve();
        return;
      }
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });
  return { received, listen, close, url: `http://127.0.0.1:${port}/hooks/pledgewatch` };
}

describe('outages', () => {
  it('PostgreSQL stopped under traffic: 503 with a Russian message, recovery by itself, no job lost', async () => {
    const { api, user } = await signedIn();
    expect((await api.get('/user/profile')).status).toBe(200);

    // Traffic all along: what the screens would ask, every 50 ms.
    const statuses: { at: number; status: number | 'network'; body: unknown; retryAfter: string | null }[] =
      [];
    let traffic = true;
    const trafficDone = (async () => {
      while (traffic) {
        const response = await api.get('/user/profile').catch(() => undefined);
        statuses.push({
          at: Date.now(),
          status: response?.status ?? 'network',
          body: response?.body,
          retryAfter: response?.headers.get('retry-after') ?? null,
        });
        await sleep(50);
      }
    })();

    // Jobs queued just before the outage: password-reset mails.
    const resetFor = [user.email];
    for (let i = 0; i < 4; i++) {
      resetFor.push((await seedOrganisation(url, [{ role: 'analyst' }])).users[0]!.email);
    }
    for (const email of resetFor) {
      expect((await api.post('/user/reset-password', { email })).status).toBeLessThan(300);
    }
    const downAt = Date.now();
    await postgres.stop();
    await sleep(8000);
    const during = statuses.filter((entry) => entry.at > downAt + 500);
    expect(during.length).toBeGreaterThan(10);
    for (const entry of during) {
      expect(entry.status).toBe(503);
      expect(entry.body).toEqual({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE });
      expect(entry.retryAfter).toBe('30');
    }
    expect(app.child.exitCode).toBeNull();

    await postgres.start();
    const upAt = Date.now();
    await waitFor(
      'the API to answer again',
      async () => (statuses.at(-1)?.status === 200 ? true : undefined),
      60_000,
    );
    const recoveredIn = Date.now() - upAt;
    traffic = false;
    await trafficDone;
    // No 500 at any time: either it worked or it said the database is unavailable.
    expect(statuses.filter((entry) => entry.status !== 200 && entry.status !== 503)).toEqual([]);

    // The jobs queued before the outage all ran; new jobs run too (the queue lives on).
    const late = (await seedOrganisation(url, [{ role: 'analyst' }])).users[0]!.email;
    expect((await api.post('/user/reset-password', { email: late })).status).toBeLessThan(300);
    const everyone = [...resetFor, late];
    // A job cut off by the outage is retried once its heartbeat has lapsed.
    await waitFor(
      'every mail to be recorded as sent',
      async () => {
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = ANY($1) AND status = 'sent'",
          [everyone],
        );
        return rows[0]!.n === everyone.length ? true : undefined;
      },
      120_000,
      500,
    );
    await sleep(2000);
    // None lost, none sent twice: a mail handed to SMTP just before PostgreSQL stopped is recorded as
    // sent once the database is back, so the job's retry does not send it again.
    const received = everyone.map((email) => smtp!.mails.filter((mail) => mail.to.includes(email)).length);
    expect(received).toEqual(everyone.map(() => 1));
    report(
      `PostgreSQL outage: down ${Math.round((upAt - downAt) / 1000)} s under traffic (${during.length} requests, all 503 in Russian with Retry-After), API back ${recoveredIn} ms after PostgreSQL, ${resetFor.length} mails queued before the outage and 1 after it delivered exactly once each`,
    );
  });

  it('SMTP server and webhook target down past the first retries, then back: each delivery arrives once', async () => {
    const { api, user } = await signedIn();
    const hookPort = await findFreePort();
    const hooks = await startWebhookReceiver(hookPort);
    const webhookRule = await api.post('/monitoring/notifications/settings', {
      name: 'Вебхук',
      method: 'webhook',
      recipients: [],
      config: { url: hooks.url, secret: 'a-very-secret-key-123456' },
    });
    expect(webhookRule.status, webhookRule.text).toBe(201);
    const recipient = `risk-${Date.now()}@bank.test`;
    const emailRule = await api.post('/monitoring/notifications/settings', {
      name: 'Почта',
      method: 'email',
      recipients: [recipient],
    });
    expect(emailRule.status, emailRule.text).toBe(201);

    // Both receivers are down (closed ports) when the work is queued.
    await smtp!.close();
    smtp = undefined;
    const deliveryIds: string[] = [];
    const TESTS = 3;
    for (let i = 0; i < TESTS; i++) {
      for (const rule of [webhookRule, emailRule]) {
        const sent = await api.post(
          `/monitoring/notifications/settings/${(rule.body as { id: string }).id}/test`,
        );
        expect(sent.status, sent.text).toBe(202);
        deliveryIds.push(...(sent.body as { deliveryIds: string[] }).deliveryIds);
      }
    }
    expect((await api.post('/user/reset-password', { email: user.email })).status).toBeLessThan(300);
    const downAt = Date.now();

    // Down until the first retry of each has failed too.
    await waitFor(
      'a retry to fail',
      async () => {
        const { rows } = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM notification_deliveries WHERE id = ANY($1) AND attempts >= 2',
          [deliveryIds],
        );
        return rows[0]!.n === deliveryIds.length ? true : undefined;
      },
      90_000,
      500,
    );
    const mailTries = await db.query<{ attempts: number; status: string }>(
      'SELECT attempts, status FROM mail_outbox WHERE to_address = $1',
      [user.email],
    );
    expect(mailTries.rows[0]?.status).toBe('queued');
    smtp = await startSmtpSink(smtpPort);
    await hooks.listen();
    const upAt = Date.now();

    const webhookIds = (
      await db.query<{ id: string }>(
        "SELECT id FROM notification_deliveries WHERE id = ANY($1) AND method = 'webhook'",
        [deliveryIds],
      )
    ).rows.map((row) => row.id);
    expect(webhookIds).toHaveLength(TESTS);
    await waitFor(
      'every delivery to arrive',
      async () =>
        webhookIds.every((id) => hooks.received.has(id)) &&
        smtp!.mails.filter((mail) => mail.to.includes(recipient)).length >= TESTS &&
        smtp!.mails.some((mail) => mail.to.includes(user.email))
          ? true
          : undefined,
      180_000,
      500,
    );
    const arrivedIn = Date.now() - upAt;
    // Quiet for a while: nothing arrives a second time.
    await sleep(5000);
    expect([...hooks.received.entries()].sort()).toEqual(webhookIds.map((id) => [id, 1]).sort());
    expect(smtp!.mails.filter((mail) => mail.to.includes(recipient))).toHaveLength(TESTS);
    expect(smtp!.mails.filter((mail) => mail.to.includes(user.email))).toHaveLength(1);
    const states = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM notification_deliveries WHERE id = ANY($1) GROUP BY status',
      [deliveryIds],
    );
    expect(states.rows).toEqual([{ status: 'sent', n: deliveryIds.length }]);
    await hooks.close();
    report(
      `SMTP + webhook outage: receivers down ${Math.round((upAt - downAt) / 1000)} s (every delivery failed twice), then ${TESTS} webhooks, ${TESTS} notification mails and 1 account mail arrived exactly once each, ${arrivedIn} ms after the receivers came back`,
    );
  });
});
