import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckRun, DashboardResponse } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { addItems, randomVin, runChecksNow } from '../testing/checks-test-helpers.ts';

/** A remote «wanted» source that answers 200 or 503 as the test says. */
let status = 200;
const server = http.createServer((_request, response) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(status === 200 ? { findings: [] } : { error: 'maintenance' }));
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const { app, config } = await buildTestApp({
  config: {
    remoteSources: {
      wanted: {
        provider: 'json-service',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        timeoutMs: 500,
        retries: 0,
        rateLimit: 1000,
        cacheTtl: 0,
        price: 0,
      },
    },
  },
});
const user = await createSignedInUser(app, { role: 'admin' });
const get = <T>(url: string) =>
  app.inject({ method: 'GET', url, headers: bearer(user.token) }).then((response) => response.json<T>());

describe('a source that failed during a run', () => {
  it('is listed as failed with its reason in the run, the run list and the dashboard — never as clean', async () => {
    await addItems(app, user.organisationId, [{ kind: 'vin', identifier: randomVin() }]);
    const first: CheckRun = await runChecksNow(app, config, user.token);
    expect(first.failedSources.map((source) => source.type)).not.toContain('wanted');

    status = 503;
    const second: CheckRun = await runChecksNow(app, config, user.token);
    expect(second.status).toBe('completed_with_errors');
    const wanted = second.failedSources.find((source) => source.type === 'wanted');
    expect(wanted).toMatchObject({ name: 'Розыск', batchesFailed: 1, itemsNotChecked: 1 });
    expect(wanted!.reason).toContain('503');
    // Every failed source is one the progress shows with a failed batch, and the other way round.
    expect(second.failedSources.map((source) => source.type).sort()).toEqual(
      second.sources
        .filter((source) => source.batchesFailed > 0)
        .map((source) => source.type)
        .sort(),
    );

    const list = await get<{ items: CheckRun[] }>('/api/v1/monitoring/check-runs');
    expect(list.items.find((run) => run.id === second.id)!.failedSources).toEqual(second.failedSources);
    const dashboard = await get<DashboardResponse>('/api/v1/monitoring/dashboard');
    expect(dashboard.lastRun).toMatchObject({ id: second.id, status: 'completed_with_errors' });
    expect(dashboard.lastRun!.failedSources).toEqual(second.failedSources);
  });
});
