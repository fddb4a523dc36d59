import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { monitoringEndpoints } from '@pledgewatch/contract';
import { describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import { hashPassword } from '../lib/crypto.ts';
import { signIn } from '../testing/test-app.ts';
import { databaseUrl, withAdminClient } from '../testing/test-database.ts';
import { migrate } from './migrate.ts';
import { createPool } from './pool.ts';
import released from './released-migrations.json' with { type: 'json' };

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

async function migrationHash(version: string): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readFile(path.join(MIGRATIONS_DIR, `${version}.sql`)))
      .digest('hex');
  } catch {
    return undefined;
  }
}

describe('migrations are history', () => {
  it('no released migration was edited, renamed or removed', async () => {
    const changed: string[] = [];
    for (const { release, migrations } of released.releases) {
      for (const [version, hash] of Object.entries(migrations)) {
        if ((await migrationHash(version)) !== hash) {
          changed.push(`${version} (released in ${release})`);
        }
      }
    }
    // A released migration already ran on someone's database: change the schema with a new file.
    expect(changed).toEqual([]);
  });

  it('new migrations sort after every released one', async () => {
    const files = (await readdir(MIGRATIONS_DIR))
      .filter((name) => name.endsWith('.sql'))
      .map((name) => name.slice(0, -4));
    const releasedVersions = new Set(released.releases.flatMap((r) => Object.keys(r.migrations)));
    const newest = [...releasedVersions].sort().at(-1) ?? '';
    const unreleased = files.filter((version) => !releasedVersions.has(version));
    expect(unreleased.filter((version) => version < newest)).toEqual([]);
  });
});

describe.each(released.releases)('a database of release $release', ({ migrations }) => {
  it('migrates forward with its data, and the current app serves that data', async () => {
    const { adminUrl } = inject('testDatabase');
    const name = `pw_forward_${randomBytes(5).toString('hex')}`;
    await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    const url = databaseUrl(adminUrl, name);
    const pool = createPool(url, 2);
    try {
      await migrate(pool, { only: new Set(Object.keys(migrations)) });
      // Rows written as that release wrote them (columns of its schema only).
      const password = 'forward-migration-2026';
      const {
        rows: [organisation],
      } = await pool.query<{ id: string }>(
        `INSERT INTO organisations (name) VALUES ('Банк Прошлого Релиза') RETURNING id`,
      );
      await pool.query(
        `INSERT INTO users (organisation_id, email, full_name, password_hash, role, email_verified_at)
         VALUES ($1, 'old-release@test.ru', 'Старый Пользователь', $2, 'admin', now())`,
        [organisation!.id, await hashPassword(password)],
      );
      await pool.query(
        `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, origin)
         SELECT $1, 'vin', 'XTA21099' || lpad(n::text, 9, '0'), 'Авто ' || n, 'КД-' || n, 'form'
         FROM generate_series(1, 3) AS n`,
        [organisation!.id],
      );

      const { applied } = await migrate(pool);
      const all = (await readdir(MIGRATIONS_DIR))
        .filter((file) => file.endsWith('.sql'))
        .map((f) => f.slice(0, -4));
      expect(applied.sort()).toEqual(all.filter((version) => !(version in migrations)).sort());

      const app = await buildApp({
        config: loadConfig({ NODE_ENV: 'test', APP_URL: 'http://pledgewatch.test', LOG_LEVEL: 'silent' }),
        connectionString: url,
        migrate: false,
        runWorkers: false,
        logger: false,
      });
      try {
        await app.ready();
        const token = await signIn(app, 'old-release@test.ru', password);
        const response = await app.inject({
          method: 'GET',
          url: `${monitoringEndpoints.items.path}?entity=vin`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.statusCode).toBe(200);
        const labels = response.json<{ items: { label: string | null }[] }>().items.map((item) => item.label);
        expect(labels.sort()).toEqual(['Авто 1', 'Авто 2', 'Авто 3']);
      } finally {
        await app.close();
      }
    } finally {
      await pool.end();
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    }
  });
});
