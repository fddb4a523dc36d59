import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** What the global setup hands to every test file (see global-setup.ts). */
export interface TestDatabaseInfo {
  /** A connection string to the server's maintenance database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** A migrated database that every test file clones. */
  templateName: string;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(
  adminUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Clones the migrated template into a fresh database, so each test file has its own data. */
export async function cloneTemplate(
  info: TestDatabaseInfo,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pw_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(info.adminUrl, async (client) => {
    // Two files cloning the same template at once collide ("source database is being accessed").
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${info.templateName}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed/.test((error as Error).message)) {
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return {
    url: databaseUrl(info.adminUrl, name),
    drop: () =>
      withAdminClient(info.adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
