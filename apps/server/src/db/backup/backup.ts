/**
 * `npm run cli -- backup --to FILE` and `restore --from FILE`: pg_dump/pg_restore with DATABASE_URL,
 * a base backup of the data folder for the embedded database (docs/operations.md).
 */
import { open } from 'node:fs/promises';
import type { AppConfig } from '../../config/env.ts';
import { BackupError } from './backup-error.ts';
import { backupEmbedded, restoreEmbedded } from './embedded-backup.ts';
import { backupServer, restoreServer } from './server-backup.ts';

export async function backupDatabase(options: {
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>;
  file: string;
  log: (line: string) => void;
}): Promise<void> {
  const { databaseUrl, dataDir } = options.config;
  if (databaseUrl) {
    await backupServer({ connectionString: databaseUrl, file: options.file });
  } else {
    await backupEmbedded({ dataDir, file: options.file, log: options.log });
  }
}

/** Which kind of backup a file is, by its first bytes: pg_dump's custom format or a tar. */
async function backupKind(file: string): Promise<'dump' | 'archive' | 'unknown'> {
  const handle = await open(file, 'r').catch(() => {
    throw new BackupError(`Файл ${file} не найден или не читается`);
  });
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    if (head.subarray(0, 5).toString('latin1') === 'PGDMP') {
      return 'dump';
    }
    return bytesRead === 512 && head.subarray(257, 262).toString('latin1') === 'ustar'
      ? 'archive'
      : 'unknown';
  } finally {
    await handle.close();
  }
}

export async function restoreDatabase(options: {
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>;
  file: string;
  force: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const { databaseUrl, dataDir } = options.config;
  const kind = await backupKind(options.file);
  if (kind === 'unknown') {
    throw new BackupError(`Файл ${options.file} не является резервной копией Pledgewatch`);
  }
  if (databaseUrl) {
    if (kind !== 'dump') {
      throw new BackupError(
        'Это копия встроенной базы (папки данных): её восстанавливают без DATABASE_URL, в DATA_DIR',
      );
    }
    await restoreServer({ connectionString: databaseUrl, file: options.file, force: options.force });
  } else {
    if (kind !== 'archive') {
      throw new BackupError(
        'Это копия сервера PostgreSQL (pg_dump): её восстанавливают с DATABASE_URL этого сервера',
      );
    }
    await restoreEmbedded({ dataDir, file: options.file, force: options.force, log: options.log });
  }
}
