import type { Role } from '@pledgewatch/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type AppConfig, loadConfig } from '../config/env.ts';
import { createOrganisation, createUserAccount } from '../modules/organisations/organisations.service.ts';
import { cloneTemplate } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  connectionString: string;
}

/**
 * An app on its own fresh database, closed and dropped after the file's tests. Job consumers
 * are off unless asked for, so tests see queued work deterministically.
 */
export async function buildTestApp(
  options: { config?: Partial<AppConfig>; runWorkers?: boolean } = {},
): Promise<TestApp> {
  const database = await cloneTemplate(inject('testDatabase'));
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      APP_URL: 'http://pledgewatch.test',
      LOG_LEVEL: 'silent',
      // Tests' webhook receivers listen on loopback; the SSRF tests pass outboundAllowedRanges: [].
      OUTBOUND_ALLOWED_RANGES: '127.0.0.0/8',
    }),
    ...options.config,
  };
  const app = await buildApp({
    config,
    connectionString: database.url,
    migrate: false,
    runWorkers: options.runWorkers ?? false,
    logger: false,
  });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.drop();
  });
  return { app, config, connectionString: database.url };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++counter}@test.ru`;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  organisationId: string;
  token: string;
}

/** Creates an organisation with one user of the role and signs that user in. */
export async function createSignedInUser(
  app: FastifyInstance,
  options: { role?: Role; organisationId?: string; isStaff?: boolean; password?: string } = {},
): Promise<TestUser> {
  const organisationId =
    options.organisationId ?? (await createOrganisation(app.db, `Организация ${++counter}`));
  const email = uniqueEmail(options.role ?? 'analyst');
  const password = options.password ?? 'correct horse battery';
  const id = await createUserAccount(app.db, {
    organisationId,
    email,
    fullName: 'Тестовый Пользователь',
    role: options.role ?? 'analyst',
    password,
    isStaff: options.isStaff,
  });
  const token = await signIn(app, email, password);
  return { id, email, password, organisationId, token };
}

export async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: new URLSearchParams({
      grant_type: 'password',
      username,
      password,
      scope: '',
      client_id: '',
      client_secret: '',
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<{ access_token: string }>().access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The newest mail written to the outbox for an address, and the token of its link if any. */
export async function latestMailTo(
  app: FastifyInstance,
  to: string,
): Promise<{ subject: string; text: string; token?: string }> {
  const { rows } = await app.db.query<{ subject: string; text_body: string }>(
    'SELECT subject, text_body FROM mail_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1',
    [to],
  );
  const mail = rows[0];
  if (!mail) {
    throw new Error(`no mail to ${to}`);
  }
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
  return { subject: mail.subject, text: mail.text_body, token };
}
