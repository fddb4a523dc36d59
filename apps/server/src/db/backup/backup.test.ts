import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../demo/demo-seed.ts';
import { createOrganisation } from '../../modules/organisations/organisations.service.ts';
import { tableFingerprints } from '../../testing/table-fingerprints.ts';
import { startEmbeddedPostgres } from '../embedded.ts';
import { migrate } from '../migrate.ts';
import { createPool } from '../pool.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { findClientTool } from './server-backup.ts';

const log = () => {};
const work = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-backup-'));
// Run as root, the embedded PostgreSQL runs as `postgres`, which must enter the data folders below.
await chmod(work, 0o755);
afterAll(() => rm(work, { recursive: true, force: true }));

const freshDir = async (name: string) => {
  const dir = path.join(work, name);
  expect(existsSync(dir)).toBe(false);
  return dir;
};

/** Every table of the app's and pg-boss's schemas (see tableFingerprints). */
const fingerprint = (connectionString: string) => tableFingerprints(connectionString, ['public', 'pgboss']);

async function seed(connectionString: string): Promise<void> {
  const pool = createPool(connectionString, 2);
  try {
    await migrate(pool);
    await seedDemo(pool);
  } finally {
    await pool.end();
  }
}

/** Starts the data folder's server, reads its fingerprint, stops it. */
async function fingerprintOf(dataDir: string): Promise<Record<string, string>> {
  const database = await startEmbeddedPostgres({ dataDir });
  try {
    return await fingerprint(database.connectionString);
  } finally {
    await database.stop();
  }
}

// Each case starts and stops embedded servers and seeds the demo: tens of seconds on a busy machine.
// The embedded database is PostgreSQL 18 whatever TEST_DB says: run once, in the embedded pass.
describe.skipIf(process.env.TEST_DB === 'server')(
  'backup and restore of the embedded database',
  { timeout: 180_000 },
  () => {
    const file = path.join(work, 'embedded.backup');
    let seeded: Record<string, string>;
    let later: Record<string, string>;

    it('backs up the running database through the low-level API and restores it into a fresh DATA_DIR', async () => {
      const source = await freshDir('source');
      const database = await startEmbeddedPostgres({ dataDir: source });
      try {
        await seed(database.connectionString);
        seeded = await fingerprint(database.connectionString);
        expect(Number(seeded['public.monitoring_items']!.split(' ')[0])).toBeGreaterThan(0);
        await backupDatabase({ config: { dataDir: source }, file, log });
        // Written after the backup: not in it.
        const pool = createPool(database.connectionString, 1);
        await createOrganisation(pool, 'После копии');
        await pool.end();
        later = await fingerprint(database.connectionString);
      } finally {
        await database.stop();
      }
      expect(later).not.toEqual(seeded);

      const target = await freshDir('target');
      await restoreDatabase({ config: { dataDir: target }, file, force: false, log });
      expect(await fingerprintOf(target)).toEqual(seeded);
      // The folder is the server's alone, as PostgreSQL requires.
      expect((await stat(path.join(target, 'postgres'))).mode & 0o777).toBe(0o700);
    });

    it('packs one file with a manifest of SHA-256 checksums, and the WAL written during the backup', async () => {
      const { stdout } = await import('node:child_process').then(({ execFileSync }) => ({
        stdout: execFileSync('tar', ['-tf', file], { encoding: 'utf8' }),
      }));
      const names = stdout.split('\n');
      expect(names.at(-2)).toBe('backup-manifest.json');
      expect(names).toContain('postgres/backup_label');
      expect(names).toContain('postgres/PG_VERSION');
      expect(names.some((name) => /^postgres\/pg_wal\/[0-9A-F]{24}$/.test(name))).toBe(true);
      expect(names).not.toContain('postgres/postmaster.pid');
    });

    it('refuses to restore over a database unless --force, then replaces it', async () => {
      const target = path.join(work, 'target');
      await expect(restoreDatabase({ config: { dataDir: target }, file, force: false, log })).rejects.toThrow(
        /уже есть база данных.*--force/,
      );
      await restoreDatabase({ config: { dataDir: target }, file, force: true, log });
      expect(await fingerprintOf(target)).toEqual(seeded);
    });

    it('refuses to restore while the database runs', async () => {
      const target = path.join(work, 'target');
      const database = await startEmbeddedPostgres({ dataDir: target });
      try {
        await expect(
          restoreDatabase({ config: { dataDir: target }, file, force: true, log }),
        ).rejects.toThrow(/сейчас работает.*остановите приложение/);
      } finally {
        await database.stop();
      }
    });

    it('refuses an altered or cut backup, writing nothing', async () => {
      const archive = await readFile(file);
      const altered = path.join(work, 'altered.backup');
      // The first byte of PG_VERSION's data, right after its entry's 512-byte header.
      const offset = archive.indexOf(Buffer.from('postgres/PG_VERSION')) + 512;
      const copy = Buffer.from(archive);
      copy[offset] = copy[offset]! ^ 0xff;
      await writeFile(altered, copy);
      const target = await freshDir('altered');
      await expect(
        restoreDatabase({ config: { dataDir: target }, file: altered, force: false, log }),
      ).rejects.toThrow(/повреждён/);
      expect(existsSync(path.join(target, 'postgres'))).toBe(false);

      const cut = path.join(work, 'cut.backup');
      const handle = await open(cut, 'w');
      await handle.write(archive.subarray(0, Math.floor(archive.length / 2 / 512) * 512));
      await handle.close();
      await expect(
        restoreDatabase({ config: { dataDir: target }, file: cut, force: false, log }),
      ).rejects.toThrow(/неполный|повреждён|не читается/);
      expect(existsSync(path.join(target, 'postgres'))).toBe(false);
    });

    it('backs up a stopped database too', async () => {
      const stoppedFile = path.join(work, 'stopped.backup');
      await backupDatabase({ config: { dataDir: path.join(work, 'source') }, file: stoppedFile, log });
      const target = await freshDir('from-stopped');
      await restoreDatabase({ config: { dataDir: target }, file: stoppedFile, force: false, log });
      expect(await fingerprintOf(target)).toEqual(later);
    });
  },
);

it('names a missing pg_dump of the server’s version and how to install it, in one sentence', async () => {
  await expect(findClientTool('pg_dump', 99)).rejects.toThrow(
    /^Не найден pg_dump версии 99 .*apt-get install postgresql-client-99[^\n]*$/,
  );
});

/** The machine's PostgreSQL (CI: 15 on 127.0.0.1:5432), whose pg_dump/pg_restore the CLI uses. */
const serverUrl = process.env.BACKUP_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const serverReachable = await (async () => {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!serverReachable)(
  'backup and restore with DATABASE_URL (pg_dump, pg_restore)',
  { timeout: 180_000 },
  () => {
    const suffix = randomBytes(4).toString('hex');
    const names = [`pw_backup_source_${suffix}`, `pw_backup_target_${suffix}`];
    const urlOf = (name: string) => {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    afterAll(async () => {
      for (const name of names) {
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });

    it('dumps a seeded database and restores it into an empty one; a second restore needs --force', async () => {
      for (const name of names) {
        await admin(`CREATE DATABASE ${name}`);
      }
      const [source, target] = names.map(urlOf) as [string, string];
      await seed(source);
      const seeded = await fingerprint(source);
      const file = path.join(work, 'server.dump');
      await backupDatabase({ config: { databaseUrl: source, dataDir: work }, file, log });
      expect((await readFile(file)).subarray(0, 5).toString()).toBe('PGDMP');

      await restoreDatabase({ config: { databaseUrl: target, dataDir: work }, file, force: false, log });
      expect(await fingerprint(target)).toEqual(seeded);

      await expect(
        restoreDatabase({ config: { databaseUrl: target, dataDir: work }, file, force: false, log }),
      ).rejects.toThrow(/уже есть данные.*--force/);
      await restoreDatabase({ config: { databaseUrl: target, dataDir: work }, file, force: true, log });
      expect(await fingerprint(target)).toEqual(seeded);

      // An embedded backup is not a dump, and the other way round: each says where it belongs.
      await expect(
        restoreDatabase({ config: { dataDir: path.join(work, 'nowhere') }, file, force: false, log }),
      ).rejects.toThrow(/pg_dump.*DATABASE_URL/);
    });
  },
);
