import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../testing/test-app.ts';
import { isConnectionError } from './pool.ts';

const { app } = await buildTestApp();
const realQuery = app.db.query.bind(app.db);
const realConnect = app.db.connect.bind(app.db);
afterEach(() => {
  app.db.query = realQuery as pg.Pool['query'];
  app.db.connect = realConnect as pg.Pool['connect'];
});

const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

/** What pg raises when the server is down, stopping, starting or unreachable. */
const OUTAGES: [string, Error][] = [
  ['connection refused', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['admin shutdown (57P01)', pgError('terminating connection due to administrator command', '57P01')],
  ['starting up (57P03)', pgError('the database system is starting up', '57P03')],
  ['connection failure (08006)', pgError('connection failure', '08006')],
  ['connection dropped', pgError('Connection terminated unexpectedly')],
  [
    'every address refused',
    Object.assign(new AggregateError([pgError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '')),
  ],
];

describe('database unavailable', () => {
  it.each(OUTAGES)('%s: the API answers 503 with a Russian message and Retry-After', async (_name, error) => {
    const user = await createSignedInUser(app);
    app.db.query = (() => Promise.reject(error)) as unknown as pg.Pool['query'];
    app.db.connect = (() => Promise.reject(error)) as unknown as pg.Pool['connect'];
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'Сервис временно недоступен: нет связи с базой данных. Повторите через минуту',
    });
  });

  it('a failing query that is not a connection problem stays a 500', async () => {
    const user = await createSignedInUser(app);
    app.db.query = (() =>
      Promise.reject(pgError('division by zero', '22012'))) as unknown as pg.Pool['query'];
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('INTERNAL');
  });

  it('classifies connection errors by SQLSTATE, socket code, pg message and cause', () => {
    for (const [, error] of OUTAGES) {
      expect(isConnectionError(error)).toBe(true);
    }
    expect(isConnectionError(new Error('migration failed', { cause: OUTAGES[0]![1] }))).toBe(true);
    expect(isConnectionError(pgError('duplicate key value', '23505'))).toBe(false);
    expect(isConnectionError(pgError('syntax error', '42601'))).toBe(false);
    expect(isConnectionError(new Error('Проверка не найдена'))).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
  });
});
