import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../db/embedded.ts';
import {
  ApiClient,
  type FaultPostgres,
  faultPool,
  type NodeProcess,
  report,
  seedOrganisation,
  startApp,
  startFaultPostgres,
  tempDir,
  waitFor,
} from '../testing/fault-harness.ts';

/**
 * The app killed with SIGKILL in the middle of a request that writes: a one-time check (numbered) and
 * a pledge package transition. The test holds a table lock so the request's transaction is caught
 * half-way (some rows written, the rest waiting), kills the app there, and then checks in SQL that
 * nothing of it remains, that the client saw a network error (which the web client shows as «Нет
 * связи с сервером. Проверьте подключение и повторите попытку.»), and that the retry succeeds.
 */
let postgres: FaultPostgres;
let url: string;
let db: pg.Pool;
let env: Record<string, string>;
let app: NodeProcess & { url: string };

beforeAll(async () => {
  postgres = await startFaultPostgres();
  url = await postgres.createDatabase('faults_app_kill');
  db = faultPool(url, 4);
  db.on('error', () => {});
  env = {
    DATABASE_URL: url,
    DATA_DIR: await tempDir('data'),
    WORKERS: 'true',
    PORT: String(await findFreePort()),
  };
  app = await startApp(env);
});
afterAll(async () => {
  await app?.kill('SIGTERM');
  await db?.end();
});

let serial = 300000 + Math.floor(Math.random() * 100000);
function makeVin(): string {
  const body = `XTA210740P${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

async function signIn(email: string, password: string): Promise<ApiClient> {
  const api = new ApiClient(app.url);
  await api.signIn(email, password);
  return api;
}

/**
 * Runs `request` while `table` is locked against writes, waits until the app's transaction is
 * blocked on that lock, kills the app, lets the lock go and waits until the orphaned transaction
 * is gone. Returns how the client's request ended.
 */
async function killMidTransaction(table: string, request: () => Promise<unknown>): Promise<unknown> {
  const locker = await db.connect();
  let outcome: unknown;
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    const pending = request().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await waitFor(
      `the app's transaction to wait on ${table}`,
      async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`,
          [`%${table}%`],
        );
        return rows[0]!.n > 0 ? true : undefined;
      },
      20_000,
      20,
    );
    await app.kill('SIGKILL');
    outcome = await pending;
  } finally {
    await locker.query('ROLLBACK');
    locker.release();
  }
  // The killed app's backend ends its transaction without a COMMIT: rolled back.
  await waitFor(
    'the killed app’s transaction to be gone',
    async () => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%' OR
                (datname = current_database() AND wait_event_type = 'Lock')`,
      );
      return rows[0]!.n === 0 ? true : undefined;
    },
    30_000,
    100,
  );
  return outcome;
}

const isNetworkError = (outcome: unknown) =>
  Boolean(outcome && typeof outcome === 'object' && 'error' in outcome && outcome.error instanceof TypeError);

describe('app killed mid-request', () => {
  it('mid one-time check: no check and no number used; the retry gets the first number', async () => {
    const org = await seedOrganisation(url, [{ role: 'analyst' }]);
    const api = await signIn(org.users[0]!.email, org.users[0]!.password);
    const vin = makeVin();
    const outcome = await killMidTransaction('one_time_checks', () =>
      api.post('/monitoring/one-time-check', { vin }),
    );
    expect(isNetworkError(outcome)).toBe(true);
    const checks = await db.query('SELECT 1 FROM one_time_checks WHERE organisation_id = $1', [
      org.organisationId,
    ]);
    expect(checks.rowCount).toBe(0);
    const counters = await db.query(
      'SELECT last_value FROM one_time_check_counters WHERE organisation_id = $1',
      [org.organisationId],
    );
    expect(counters.rows).toEqual([]);

    app = await startApp(env);
    const retried = await api.post('/monitoring/one-time-check', { vin });
    expect(retried.status, retried.text).toBe(200);
    expect((retried.body as { number: string }).number).toMatch(/-0*1$/);
    const after = await db.query('SELECT identifier FROM one_time_checks WHERE organisation_id = $1', [
      org.organisationId,
    ]);
    expect(after.rows).toEqual([{ identifier: vin }]);
    report('one-time check: app killed inside its transaction; nothing written, the retry got number 1');
  });

  it('mid package transition: the package stays as it was, no history; the retry moves it once', async () => {
    const org = await seedOrganisation(url, [{ role: 'analyst' }, { role: 'admin' }]);
    const maker = await signIn(org.users[0]!.email, org.users[0]!.password);
    const checker = await signIn(org.users[1]!.email, org.users[1]!.password);
    const eventIds: string[] = [];
    for (const vin of [makeVin(), makeVin()]) {
      const created = await maker.post('/pledges/events', {
        kind: 'creation',
        notificationDate: '2025-01-15',
        pledgor: {
          type: 'individual',
          lastName: 'Иванов',
          firstName: 'Иван',
          middleName: 'Иванович',
          birthDate: '1980-02-01',
          documentType: 'passport_rf',
          documentNumber: '4506 123456',
        },
        pledgee: { type: 'company', name: 'ПАО Сбербанк', inn: '7707083893', ogrn: '1027700132195' },
        contract: { name: 'Договор залога', number: `ДЗ-${vin}`, date: '2025-01-15', endDate: '2030-01-15' },
        vehicles: [{ vin, description: 'LADA Granta' }],
      });
      expect(created.status, created.text).toBe(201);
      eventIds.push((created.body as { event: { id: string } }).event.id);
    }
    const created = await maker.post('/pledges/packages', { eventIds });
    expect(created.status, created.text).toBe(201);
    const packageId = (created.body as { id: string }).id;

    const outcome = await killMidTransaction('audit_log', () =>
      checker.post(`/pledges/packages/${packageId}/transition`, { action: 'approve' }),
    );
    expect(isNetworkError(outcome)).toBe(true);
    const state = async () => {
      const pkg = await db.query('SELECT status, approved_by FROM pledge_packages WHERE id = $1', [
        packageId,
      ]);
      const history = await db.query(
        'SELECT action FROM pledge_package_history WHERE package_id = $1 ORDER BY id',
        [packageId],
      );
      const audit = await db.query(
        "SELECT action FROM audit_log WHERE entity_id = $1 AND action LIKE 'pledge_package.%' ORDER BY created_at",
        [packageId],
      );
      return {
        package: pkg.rows[0],
        history: history.rows.map((row) => row.action),
        audit: audit.rows.map((row) => row.action),
      };
    };
    const before = await state();
    expect(before.package).toEqual({ status: 'draft', approved_by: null });
    expect(before.history).not.toContain('approve');
    expect(before.audit).not.toContain('pledge_package.approve');

    app = await startApp(env);
    const retried = await checker.post(`/pledges/packages/${packageId}/transition`, { action: 'approve' });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ status: 'ready' });
    const after = await state();
    expect(after.package).toEqual({ status: 'ready', approved_by: org.users[1]!.id });
    expect(after.history.filter((action) => action === 'approve')).toHaveLength(1);
    expect(after.audit.filter((action) => action === 'pledge_package.approve')).toHaveLength(1);
    // A second click (the client unsure whether its first one landed) is refused, not applied twice.
    const again = await checker.post(`/pledges/packages/${packageId}/transition`, { action: 'approve' });
    expect(again.status).toBe(409);
    report(
      'package transition: app killed inside its transaction; package unchanged, the retry approved it once',
    );
  });
});
