import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../testing/test-app.ts';
import { READY_CACHE_MS } from './health.routes.ts';

const { app } = await buildTestApp();
const realQuery = app.db.query.bind(app.db);
afterEach(() => {
  app.db.query = realQuery as pg.Pool['query'];
});

/** Past the readiness cache, so the next call checks again. */
const nextCheck = () => sleep(READY_CACHE_MS + 50);
const ready = () => app.inject({ method: 'GET', url: '/api/v1/health/ready' });

describe('health', () => {
  it('live answers 200 without sign-in and without the database', async () => {
    app.db.query = (() => Promise.reject(new Error('must not be asked'))) as unknown as pg.Pool['query'];
    const response = await app.inject({ method: 'GET', url: '/api/v1/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('ready answers 200 without sign-in when the database, migrations and job queue are fine', async () => {
    await nextCheck();
    const response = await ready();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', jobs: 'ok' },
    });
  });

  it('ready answers 503 naming the database when it is down', async () => {
    await nextCheck();
    app.db.query = (() =>
      Promise.reject(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      )) as unknown as pg.Pool['query'];
    const response = await ready();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      statusCode: 503,
      code: 'NOT_READY',
      message: 'Сервис не готов: Нет связи с базой данных',
      fieldErrors: [{ field: 'database', message: 'Нет связи с базой данных' }],
    });
  });

  it('ready answers 503 naming the database when it does not answer in time', async () => {
    await nextCheck();
    app.db.query = (() => new Promise(() => {})) as unknown as pg.Pool['query'];
    const started = Date.now();
    const response = await ready();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(response.statusCode).toBe(503);
    expect(response.json().fieldErrors).toEqual([
      { field: 'database', message: 'База данных не ответила за 2 с' },
    ]);
  });

  it('ready answers 503 naming a pending migration, and 200 again once it is applied', async () => {
    await nextCheck();
    const { rows } = await app.db.query<{ version: string }>(
      'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING version',
    );
    const version = rows[0]!.version;
    try {
      const response = await ready();
      expect(response.statusCode).toBe(503);
      expect(response.json().fieldErrors).toEqual([
        {
          field: 'migrations',
          message: `Не применены миграции: ${version}. Запустите npm run migrate или перезапустите приложение`,
        },
      ]);
    } finally {
      await app.db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    }
    await nextCheck();
    expect((await ready()).statusCode).toBe(200);
  });

  it('calls within a second share one check (cheap for a load balancer)', async () => {
    await nextCheck();
    let queries = 0;
    app.db.query = ((...args: Parameters<pg.Pool['query']>) => {
      queries++;
      return (realQuery as (...a: unknown[]) => unknown)(...args);
    }) as unknown as pg.Pool['query'];
    const answers = await Promise.all(Array.from({ length: 20 }, () => ready()));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    expect(queries).toBe(1);
  });

  // Last: the queue does not come back in this app.
  it('ready answers 503 naming the job queue once it has stopped', async () => {
    await nextCheck();
    await app.queue.boss.stop({ graceful: false, close: false });
    const response = await ready();
    expect(response.statusCode).toBe(503);
    expect(response.json().fieldErrors).toEqual([
      { field: 'jobs', message: 'Очередь фоновых задач не запущена' },
    ]);
  });
});
