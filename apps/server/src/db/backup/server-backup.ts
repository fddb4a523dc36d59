/**
 * Backup and restore of a PostgreSQL server's database (DATABASE_URL) with the server's own tools:
 * pg_dump in its custom format, and pg_restore, of the server's major version.
 */
import { execFile } from 'node:child_process';
import { access, constants, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { BackupError } from './backup-error.ts';

const run = promisify(execFile);

/** The server's major version (15, 18, …). */
async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ version: string }>(
    "SELECT current_setting('server_version_num') AS version",
  );
  return Math.floor(Number(rows[0]!.version) / 10000);
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString, application_name: 'pledgewatch-backup' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Нет связи с базой данных DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * pg_dump or pg_restore of the given major version: Debian's and RHEL's versioned folders first,
 * then PATH. pg_dump refuses a server newer than itself, and an older one would write what the
 * server's own cannot promise to restore, so the versions must match.
 */
export async function findClientTool(tool: 'pg_dump' | 'pg_restore', major: number): Promise<string> {
  const candidates = [
    `/usr/lib/postgresql/${major}/bin/${tool}`,
    `/usr/pgsql-${major}/bin/${tool}`,
    ...(process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, tool)),
  ];
  for (const candidate of candidates) {
    const usable = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (!usable) {
      continue;
    }
    const { stdout } = await run(candidate, ['--version']).catch(() => ({ stdout: '' }));
    if (Number(/\(PostgreSQL\) (\d+)/.exec(stdout)?.[1]) === major) {
      return candidate;
    }
  }
  throw new BackupError(
    `Не найден ${tool} версии ${major} (как у сервера PostgreSQL): установите клиент PostgreSQL ${major} (Debian/Ubuntu: apt-get install postgresql-client-${major}; RHEL: dnf install postgresql${major}) и повторите`,
  );
}

/** The connection as the tools take it: the password in PGPASSWORD, never on a command line. */
function toolConnection(connectionString: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(connectionString);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(tool, args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new BackupError(
      `${path.basename(tool)} завершился с ошибкой: ${stderr.split('\n').slice(-3).join(' ') || (error as Error).message}`,
    );
  }
}

/** `pg_dump --format=custom` into `<file>.partial`, renamed to `file` once pg_dump succeeded. */
export async function backupServer(options: { connectionString: string; file: string }): Promise<void> {
  const major = await withClient(options.connectionString, serverMajor);
  const tool = await findClientTool('pg_dump', major);
  const { dbname, env } = toolConnection(options.connectionString);
  const partial = `${options.file}.partial`;
  try {
    await runTool(tool, ['--format=custom', `--file=${partial}`, `--dbname=${dbname}`], env);
    await rename(partial, options.file);
  } finally {
    await rm(partial, { force: true });
  }
}

/** Schemas of the database's own objects (the app's tables, pg-boss's). */
const USER_SCHEMAS = `SELECT nspname FROM pg_namespace
  WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'`;

/**
 * pg_restore in one transaction: a restore that fails or is killed midway leaves the database as it
 * was before it. An existing database (any table) is replaced only with force, and never while the
 * app or a worker is connected.
 */
export async function restoreServer(options: {
  connectionString: string;
  file: string;
  force: boolean;
}): Promise<void> {
  await access(options.file, constants.R_OK).catch(() => {
    throw new BackupError(`Файл ${options.file} не найден или не читается`);
  });
  const tool = await withClient(options.connectionString, async (client) => {
    const others = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'pledgewatch%'`,
    );
    if (others.rows[0]!.count > 0) {
      throw new BackupError(
        'К базе подключены приложение или обработчики Pledgewatch: остановите их и повторите восстановление',
      );
    }
    const tables = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname IN (${USER_SCHEMAS})`,
    );
    if (tables.rows[0]!.count > 0 && !options.force) {
      throw new BackupError(
        'В базе DATABASE_URL уже есть данные: чтобы заменить их копией, добавьте --force',
      );
    }
    const found = await findClientTool('pg_restore', await serverMajor(client));
    if (tables.rows[0]!.count > 0) {
      // Everything the database holds goes, not only what the dump names: a table of a newer
      // version left beside the restored ones would break the next start's migrations.
      const schemas = await client.query<{ nspname: string }>(USER_SCHEMAS);
      await client.query('BEGIN');
      for (const { nspname } of schemas.rows) {
        await client.query(`DROP SCHEMA ${client.escapeIdentifier(nspname)} CASCADE`);
      }
      await client.query('CREATE SCHEMA public');
      await client.query('COMMIT');
    }
    return found;
  });
  const { dbname, env } = toolConnection(options.connectionString);
  await runTool(
    tool,
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--dbname=${dbname}`,
      options.file,
    ],
    env,
  );
}
