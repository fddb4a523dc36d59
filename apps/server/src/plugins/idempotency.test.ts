import { describe, expect, it } from 'vitest';
import { reserveIdempotentRequest } from '../lib/idempotency.queries.ts';
import { multipartFile, randomVin } from '../modules/checks/testing/checks-test-helpers.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../testing/test-app.ts';

const { app } = await buildTestApp();

const post = (user: TestUser, url: string, payload: object, key?: string) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(user.token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
const count = async (sql: string, params: unknown[]) =>
  (await app.db.query<{ n: number }>(sql, params)).rows[0]!.n;

describe('Idempotency-Key on creating POSTs (issue #26)', () => {
  it('a retry with the same key and body gets the first answer and creates nothing', async () => {
    const user = await createSignedInUser(app);
    const body = { rows: [{ vin: randomVin('XTA'), label: 'Retry' }] };
    const first = await post(user, '/api/v1/monitoring/regular-check/form-vin', body, 'loan-2026-000123');
    const second = await post(user, '/api/v1/monitoring/regular-check/form-vin', body, 'loan-2026-000123');
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(
      await count('SELECT count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1', [
        user.organisationId,
      ]),
    ).toBe(1);
    // Without a key the same body is a new request, answered as such (a duplicate row, not a new item).
    const plain = await post(user, '/api/v1/monitoring/regular-check/form-vin', body);
    expect(plain.headers['idempotent-replayed']).toBeUndefined();
  });

  it('one-time checks, runs and uploads are created once per key', async () => {
    const user = await createSignedInUser(app);
    const vin = randomVin('Z94');
    for (let i = 0; i < 3; i++) {
      expect((await post(user, '/api/v1/monitoring/one-time-check', { vin }, 'check-1')).statusCode).toBe(
        200,
      );
    }
    expect(
      await count('SELECT count(*)::int AS n FROM one_time_checks WHERE organisation_id = $1', [
        user.organisationId,
      ]),
    ).toBe(1);
    await post(user, '/api/v1/monitoring/regular-check/form-vin', { rows: [{ vin }] });
    const runs = [];
    for (let i = 0; i < 2; i++) {
      runs.push((await post(user, '/api/v1/monitoring/check-runs', {}, 'run-1')).json<{ id: string }>().id);
    }
    expect(runs[1]).toBe(runs[0]);
    expect(
      await count('SELECT count(*)::int AS n FROM check_runs WHERE organisation_id = $1', [
        user.organisationId,
      ]),
    ).toBe(1);
    const file = multipartFile('portfolio.csv', `VIN\n${randomVin('WVW')}\n`);
    const uploads = [];
    for (let i = 0; i < 2; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/uploads',
        payload: file.payload,
        headers: { ...file.headers, ...bearer(user.token), 'idempotency-key': 'upload-1' },
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      uploads.push(response.json<{ id: string }>().id);
    }
    expect(uploads[1]).toBe(uploads[0]);
    expect(
      await count('SELECT count(*)::int AS n FROM uploads WHERE organisation_id = $1', [user.organisationId]),
    ).toBe(1);
  });

  it('the same key with another body is a 422; a key over 200 characters too', async () => {
    const user = await createSignedInUser(app);
    await post(user, '/api/v1/monitoring/one-time-check', { vin: randomVin('XTA') }, 'reused');
    const other = await post(user, '/api/v1/monitoring/one-time-check', { vin: randomVin('XTA') }, 'reused');
    expect(other.statusCode).toBe(422);
    expect(other.json<{ message: string }>().message).toMatch(/Ключ идемпотентности уже использован/);
    const tooLong = await post(
      user,
      '/api/v1/monitoring/one-time-check',
      { vin: randomVin('XTA') },
      'k'.repeat(201),
    );
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.body).toContain('длиннее 200 символов');
  });

  it('keys are per organisation, and a failed first request frees its key for the retry', async () => {
    const a = await createSignedInUser(app);
    const b = await createSignedInUser(app);
    const vin = randomVin('XTA');
    expect((await post(a, '/api/v1/monitoring/one-time-check', { vin }, 'shared')).statusCode).toBe(200);
    const inB = await post(b, '/api/v1/monitoring/one-time-check', { vin }, 'shared');
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect(
      await count('SELECT count(*)::int AS n FROM one_time_checks WHERE organisation_id = $1', [
        b.organisationId,
      ]),
    ).toBe(1);
    const failed = await post(a, '/api/v1/monitoring/one-time-check', { vin: 'НЕ VIN' }, 'fix-and-retry');
    expect(failed.statusCode).toBe(422);
    const fixed = await post(
      a,
      '/api/v1/monitoring/one-time-check',
      { vin: randomVin('XTA') },
      'fix-and-retry',
    );
    expect(fixed.statusCode).toBe(200);
  });
});

describe('two requests with one key at the same moment', () => {
  it('the one whose insert waited on the other is told it is in progress, never reserved', async () => {
    const user = await createSignedInUser(app);
    const request = {
      organisationId: user.organisationId,
      key: 'same-moment',
      method: 'POST',
      route: '/api/v1/monitoring/one-time-check',
      requestHash: 'h1',
    };
    // The first request's reservation, not yet committed: the second's insert waits on it.
    const first = await app.db.connect();
    try {
      await first.query('BEGIN');
      expect(await reserveIdempotentRequest(first, request)).toEqual({ kind: 'reserved' });
      const second = reserveIdempotentRequest(app.db, request);
      await waitForLockWait(user.organisationId);
      await first.query('COMMIT');
      expect(await second).toEqual({ kind: 'in_progress' });
    } finally {
      first.release();
    }
  });
});

/** Waits until a statement is blocked on a lock (the second reservation's insert). */
async function waitForLockWait(organisationId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const waiting = await count(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE '%idempotency_keys%' AND datname = current_database()`,
      [],
    );
    if (waiting > 0) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the second reservation of ${organisationId} never waited`);
}
