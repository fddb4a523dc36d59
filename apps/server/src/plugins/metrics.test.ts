import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../jobs/job-definition.ts';
import { serveWorkerMetrics } from '../lib/metrics.ts';
import {
  addItems,
  multipartFile,
  randomVin,
  runChecksNow,
} from '../modules/checks/testing/checks-test-helpers.ts';
import { deliverMailJob } from '../modules/mail/jobs/deliver-mail.job.ts';
import { queueMail } from '../modules/mail/mail.service.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import { bearer, buildTestApp, createSignedInUser } from '../testing/test-app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** A stand-in JSON source service on loopback: finds nothing for every identifier. */
const service = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"findings":[]}');
});
service.listen(0, '127.0.0.1');
await once(service, 'listening');
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-metrics-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({
  config: {
    dataDir,
    metricsToken: TOKEN,
    remoteSources: {
      wanted: {
        provider: 'json-service',
        url: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
        timeoutMs: 2000,
        retries: 0,
        rateLimit: 1000,
        cacheTtl: 0,
        price: 0,
      },
    },
  },
});

const scrape = async (target: FastifyInstance = app) => {
  const response = await target.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

/** The value of one series of a scrape: the line whose name and labels (all those given) match. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) {
      continue;
    }
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('is not served without METRICS_TOKEN', async () => {
    const { app: plain } = await buildTestApp();
    const response = await plain.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_request_duration_seconds');
  });

  it('answers only to the bearer token', async () => {
    for (const headers of [
      {},
      bearer('wrong-token-0123456789abcdef'),
      bearer(`${TOKEN}x`),
      { authorization: TOKEN },
    ]) {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body).not.toContain('# HELP');
    }
    // A user's session token is not the metrics token.
    const user = await createSignedInUser(app, { role: 'admin' });
    expect(
      (await app.inject({ method: 'GET', url: '/metrics', headers: bearer(user.token) })).statusCode,
    ).toBe(401);
  });

  it('speaks the Prometheus text format, with the process and the job queues', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // Families are separated by blank lines; every other line is a comment (HELP/TYPE) or one
    // sample: a name, optional labels, a number.
    const lines = response.body.split('\n').filter(Boolean);
    for (const line of lines) {
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (-?[0-9.e+-]+|[+-]Inf|NaN))$/,
      );
    }
    expect(lines).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(response.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Every queue's depth comes from pg-boss's table: the app reports queues whoever consumes them.
    for (const queue of ['mail.deliver', 'checks.batch', 'uploads.import']) {
      expect(sample(response.body, 'pledgewatch_job_queue_jobs', { queue, state: 'queued' }), queue).toBe(0);
    }
  });

  it('times a request under its route pattern and status, never its raw URL', async () => {
    const user = await createSignedInUser(app);
    const id = '00000000-0000-4000-8000-000000000001';
    const labels = { method: 'GET', route: '/api/v1/monitoring/items/:id', status_code: '404' };
    const before = sample(await scrape(), 'http_request_duration_seconds_count', labels) ?? 0;
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/items/${id}?x=1`,
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(404);
    const after = await scrape();
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(after).not.toContain(id);
    // An unknown address is one series, whatever the path.
    await app.inject({ method: 'GET', url: `/api/v1/no/such/${id}` });
    expect(
      sample(await scrape(), 'http_request_duration_seconds_count', { route: 'unmatched' }),
    ).toBeGreaterThan(0);
    expect(await scrape()).not.toContain(id);
  });

  it('counts an upload’s rows, a check run and its sources by provider, and mail', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const before = await scrape();
    const count = (text: string, name: string, labels: Record<string, string>) =>
      sample(text, name, labels) ?? 0;

    const vins = [randomVin('XTA'), randomVin('XTA')];
    const file = multipartFile('portfolio.csv', `vin\n${vins.join('\n')}\nnot-a-vin\n`);
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/uploads',
      payload: file.payload,
      headers: { ...file.headers, ...bearer(admin.token) },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const uploadId = uploaded.json<{ id: string }>().id;
    const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;
    const job = { id: 'test', data: { uploadId }, retryCount: 0, retryLimit: 3 };
    await validateUploadJob.handler(job, context);
    const confirmed = await app.inject({
      method: 'POST',
      url: `/api/v1/monitoring/uploads/${uploadId}/confirm`,
      headers: bearer(admin.token),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await importUploadJob.handler(job, context);

    await addItems(app, admin.organisationId, [{ kind: 'vin', identifier: randomVin('XTW') }]);
    const run = await runChecksNow(app, config, admin.token);
    expect(['completed', 'completed_with_errors']).toContain(run.status);

    const mailId = await queueMail({
      db: app.db,
      queue: app.queue,
      organisationId: admin.organisationId,
      message: { to: 'metrics@test.ru', subject: 'Проверка', text: 'Проверка', html: '<p>Проверка</p>' },
    });
    await deliverMailJob.handler({ id: 'test', data: { mailId }, retryCount: 0, retryLimit: 6 }, context);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      count(after, name, labels) - count(before, name, labels);
    expect(moved('pledgewatch_upload_rows_total', { kind: 'items', outcome: 'accepted' })).toBe(2);
    expect(moved('pledgewatch_upload_rows_total', { kind: 'items', outcome: 'rejected' })).toBe(1);
    expect(
      moved('pledgewatch_check_run_duration_seconds_count', { trigger: 'manual', status: run.status }),
    ).toBe(1);
    // The HTTP JSON source was asked about the run's three items, one call each.
    expect(moved('pledgewatch_source_answers_total', { source: 'wanted', provider: 'json-service' })).toBe(3);
    expect(
      moved('pledgewatch_source_request_duration_seconds_count', {
        source: 'wanted',
        provider: 'json-service',
      }),
    ).toBe(3);
    // A dataset source answered the batch's items in one match (or failed without data).
    const datasetCalls = moved('pledgewatch_source_request_duration_seconds_count', {
      source: 'restrictions',
      provider: 'dataset',
    });
    expect(datasetCalls).toBe(1);
    expect(moved('pledgewatch_mail_deliveries_total', { outcome: 'kept' })).toBe(1);
  });

  it('serves a worker’s own metrics on METRICS_PORT to the same token', async () => {
    const server = await serveWorkerMetrics({ host: '127.0.0.1', port: 0, token: TOKEN });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/other`, { headers: bearer(TOKEN) })).status).toBe(404);
    const response = await fetch(`${url}/metrics`, { headers: bearer(TOKEN) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE pledgewatch_source_answers_total counter');
  });
});
