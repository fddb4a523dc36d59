import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import {
  createOrganisation,
  createUserAccount,
} from '../apps/server/src/modules/organisations/organisations.service.ts';
import { type BenchContext, printTable, runLoad } from './harness.ts';

/** Sign-in and `auth/me` throughput through real HTTP, beside a bare Fastify route on the same machine. */
export async function benchAuth({ databaseUrl, seconds }: BenchContext): Promise<void> {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), loginMaxAttempts: 1_000_000 };
  const app = await buildApp({ config, connectionString: databaseUrl, logger: false, runWorkers: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const bare = Fastify();
  bare.get('/ping', async () => ({ ok: true }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/ping`;

  const organisationId = await createOrganisation(app.db, 'Бенчмарк');
  const email = `bench-${Date.now()}@bench.ru`;
  await createUserAccount(app.db, {
    organisationId,
    email,
    fullName: 'Бенч',
    role: 'analyst',
    password: 'bench-password',
  });
  const form = new URLSearchParams({
    grant_type: 'password',
    username: email,
    password: 'bench-password',
  }).toString();
  const login = async () => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    if (!response.ok) {
      throw new Error(String(response.status));
    }
    return response.json() as Promise<{ access_token: string }>;
  };
  const { access_token: token } = await login();
  const expectOk = async (response: Response) => {
    await response.arrayBuffer();
    if (!response.ok) {
      throw new Error(String(response.status));
    }
  };

  const results = [
    await runLoad('bare Fastify GET /ping', () => fetch(bareUrl).then(expectOk), {
      concurrency: 16,
      seconds,
    }),
    await runLoad(
      'GET /api/v1/auth/me',
      () => fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then(expectOk),
      {
        concurrency: 16,
        seconds,
      },
    ),
    await runLoad('POST /api/v1/auth/login (scrypt)', login, { concurrency: 4, seconds }),
  ];
  printTable('Auth throughput (HTTP on loopback)', results);
  console.log(
    `auth/me costs ${(results[0]!.perSecond / results[1]!.perSecond).toFixed(1)}× a bare route (session lookup + user join per request).`,
  );
  await app.close();
  await bare.close();
}
