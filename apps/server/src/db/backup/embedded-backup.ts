/**
 * Backup and restore of the embedded database (DATA_DIR/postgres), whose npm package ships no
 * pg_dump: a base backup of the data folder through PostgreSQL's low-level backup API, with the WAL
 * written meanwhile, packed by backup-archive.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { releaseOrphan, runningEmbeddedServer, serverUser, startEmbeddedPostgres } from '../embedded.ts';
import { type ArchiveWriter, extractArchive, writeArchive } from './backup-archive.ts';
import { BackupError } from './backup-error.ts';

const run = promisify(execFile);
const DATABASE_FOLDER = 'postgres';
const RESTORING_FOLDER = 'postgres.restoring';
const REPLACED_FOLDER = 'postgres.replaced';

/**
 * What a base backup leaves out (PostgreSQL's "Backing Up the Data Directory"): folders whose
 * contents the server rebuilds or that belong to the running server, and files of that kind.
 * pg_wal is added apart, limited to the backup's own WAL.
 */
const EMPTY_FOLDERS = new Set([
  'pg_wal',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
  'pg_replslot',
]);
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'pg_internal.init',
  'current_logfiles',
]);

/**
 * Backs up the data folder of DATA_DIR into `file`: through the running server when the app (or
 * its server) runs, else by starting the server for the time of the backup, which also keeps an app
 * from starting on the folder meanwhile.
 */
export async function backupEmbedded(options: {
  dataDir: string;
  file: string;
  log: (line: string) => void;
}) {
  const { dataDir } = options;
  if (!existsSync(path.join(dataDir, DATABASE_FOLDER, 'PG_VERSION'))) {
    throw new BackupError(`В DATA_DIR=${dataDir} нет встроенной базы: копировать нечего`);
  }
  const running = runningEmbeddedServer(dataDir);
  if (running) {
    options.log(`Копия работающей встроенной базы (PostgreSQL pid ${running.pid}) ...`);
    return baseBackup({ ...options, connectionString: running.connectionString });
  }
  options.log('Встроенная база остановлена: она запускается на время копии ...');
  const database = await startEmbeddedPostgres({ dataDir });
  try {
    return await baseBackup({ ...options, connectionString: database.connectionString });
  } finally {
    await database.stop();
  }
}

async function baseBackup(options: { dataDir: string; file: string; connectionString: string }) {
  const databaseDir = path.join(options.dataDir, DATABASE_FOLDER);
  const client = new pg.Client({
    connectionString: options.connectionString,
    application_name: 'pledgewatch-backup',
  });
  client.on('error', () => {});
  await client.connect();
  try {
    // A temporary slot of this session keeps every WAL segment from here on until the session ends,
    // whatever checkpoints happen while the files are copied.
    await client.query(
      `SELECT pg_create_physical_replication_slot('pledgewatch_backup_' || pg_backend_pid(), true, true)`,
    );
    const started = await client.query<{ lsn: string; wal: string }>(
      `SELECT lsn::text, pg_walfile_name(lsn) AS wal FROM pg_backup_start('pledgewatch', true) AS lsn`,
    );
    const start = started.rows[0]!;
    const manifest = await writeArchive(options.file, async (archive) => {
      try {
        await addTree(archive, databaseDir, DATABASE_FOLDER);
      } catch (error) {
        // Ended in every case: an open backup stays open as long as the session.
        await client.query('SELECT pg_backup_stop(false)').catch(() => {});
        throw error;
      }
      const result = await client.query<{ lsn: string; wal: string; labelfile: string; spcmapfile: string }>(
        `SELECT lsn::text, pg_walfile_name(lsn) AS wal, labelfile, spcmapfile FROM pg_backup_stop(false)`,
      );
      const stopped = result.rows[0]!;
      await archive.addBuffer(`${DATABASE_FOLDER}/backup_label`, Buffer.from(stopped.labelfile));
      if (stopped.spcmapfile) {
        await archive.addBuffer(`${DATABASE_FOLDER}/tablespace_map`, Buffer.from(stopped.spcmapfile));
      }
      // The WAL from the backup's start to its end (pg_backup_stop switched to a new segment, so the
      // last one is complete on disk), kept by the slot; and the timelines' history files.
      await addWal(archive, databaseDir, start.wal, stopped.wal);
      return {
        format: 'pledgewatch-embedded-backup',
        version: 1,
        postgresVersion: (await readFile(path.join(databaseDir, 'PG_VERSION'), 'utf8')).trim(),
        createdAt: new Date().toISOString(),
        method: 'online',
        startLsn: start.lsn,
        stopLsn: stopped.lsn,
      };
    });
    return manifest;
  } finally {
    await client.end();
  }
}

async function addTree(archive: ArchiveWriter, dir: string, name: string) {
  archive.addDirectory(name);
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      return [];
    }
    throw error;
  });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const source = path.join(dir, entry.name);
    const child = `${name}/${entry.name}`;
    if (entry.name.startsWith('pgsql_tmp')) {
      continue;
    }
    if (entry.isDirectory()) {
      if (name === DATABASE_FOLDER && EMPTY_FOLDERS.has(entry.name)) {
        archive.addDirectory(child);
        if (entry.name === 'pg_wal') {
          archive.addDirectory(`${child}/archive_status`);
        }
        continue;
      }
      await addTree(archive, source, child);
    } else if (entry.isFile() && !SKIPPED_FILES.has(entry.name)) {
      const info = await lstat(source).catch(() => undefined);
      if (info) {
        await archive.addFile(child, source, info.size);
      }
    } else if (entry.isSymbolicLink()) {
      // pg_tblspc links: the app creates no tablespace, and a copy of a folder outside DATA_DIR
      // would not be restored in its place.
      throw new BackupError(
        `В данных встроенной базы есть ссылка ${child} (табличное пространство вне DATA_DIR): такую базу эта команда не копирует`,
      );
    }
  }
}

async function addWal(archive: ArchiveWriter, databaseDir: string, first: string, last: string) {
  const walDir = path.join(databaseDir, 'pg_wal');
  for (const name of (await readdir(walDir)).sort()) {
    const segment = /^[0-9A-F]{24}$/.test(name) && name >= first && name <= last;
    if (segment || /^[0-9A-F]{8}\.history$/.test(name)) {
      const info = await lstat(path.join(walDir, name));
      await archive.addFile(`${DATABASE_FOLDER}/pg_wal/${name}`, path.join(walDir, name), info.size);
    }
  }
}

/**
 * Restores a backup into DATA_DIR: unpacked and checked beside the data folder, then swapped in,
 * then started once so that PostgreSQL replays the backup's WAL (a restore that ends well leaves a
 * database that starts). The app must be stopped; an existing database is replaced only with force.
 * A restore killed midway leaves the old folder or the new one in place and its leftovers beside
 * it, which the next restore removes first.
 */
export async function restoreEmbedded(options: {
  dataDir: string;
  file: string;
  force: boolean;
  log: (line: string) => void;
}) {
  const { dataDir } = options;
  const databaseDir = path.join(dataDir, DATABASE_FOLDER);
  const running = runningEmbeddedServer(dataDir);
  if (running?.appPid) {
    throw new BackupError(
      `Встроенная база в DATA_DIR=${dataDir} сейчас работает (приложение, pid ${running.appPid}): остановите приложение и повторите восстановление`,
    );
  }
  if (running) {
    // A server whose app (or restore) was killed: stopped, as the app's own start does.
    await releaseOrphan(dataDir, databaseDir);
  }
  const existing = await readdir(databaseDir).catch(() => [] as string[]);
  if (existing.length > 0 && !options.force) {
    throw new BackupError(
      `В DATA_DIR=${dataDir} уже есть база данных: чтобы заменить её копией, добавьте --force`,
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o711 });
  const restoring = path.join(dataDir, RESTORING_FOLDER);
  const replaced = path.join(dataDir, REPLACED_FOLDER);
  // What a killed restore left behind.
  await rm(restoring, { recursive: true, force: true });
  await rm(replaced, { recursive: true, force: true });
  options.log(`Распаковка и проверка ${options.file} ...`);
  let manifest: Awaited<ReturnType<typeof extractArchive>>;
  try {
    manifest = await extractArchive(options.file, DATABASE_FOLDER, restoring);
  } catch (error) {
    await rm(restoring, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(`Файл ${options.file} не найден`);
    }
    if (error instanceof BackupError) {
      throw error;
    }
    throw new BackupError(
      `Файл ${options.file} не читается как резервная копия: ${(error as Error).message}`,
    );
  }
  const user = await serverUser();
  if (user) {
    await chownTree(restoring, user);
  }
  await chmod(restoring, 0o700);
  // On disk before the folder is swapped in: a power loss after the swap must not find holes.
  await syncFileSystem(restoring);
  if (existing.length > 0) {
    await rename(databaseDir, replaced);
  } else {
    await rm(databaseDir, { recursive: true, force: true });
  }
  await rename(restoring, databaseDir);
  await rm(replaced, { recursive: true, force: true });
  options.log(`База из копии от ${manifest.createdAt} на месте; запуск для проверки ...`);
  const database = await startEmbeddedPostgres({ dataDir }).catch((error: unknown) => {
    throw new BackupError(
      `Копия восстановлена, но встроенный PostgreSQL не запускается на ней: ${(error as Error).message}`,
    );
  });
  await database.stop();
  return manifest;
}

/**
 * Flushes the file system holding `dir` once (syncfs through coreutils' `sync -f`), instead of an
 * fsync per file, which on a busy disk took longer than the restore itself; plain `sync` elsewhere.
 */
async function syncFileSystem(dir: string): Promise<void> {
  await run('sync', ['-f', dir]).catch(() => run('sync', []));
}

async function chownTree(dir: string, user: { uid: number; gid: number }): Promise<void> {
  await chown(dir, user.uid, user.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await chownTree(child, user);
    } else {
      await chown(child, user.uid, user.gid);
    }
  }
}
