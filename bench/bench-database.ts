import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';

/** DATABASE_URL when set (e.g. the machine's PostgreSQL), else a throw-away embedded PostgreSQL 18. */
export async function openBenchDatabase(): Promise<{
  url: string;
  label: string;
  close: () => Promise<void>;
}> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, label: 'DATABASE_URL', close: async () => {} };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-bench-'));
  const { chmod } = await import('node:fs/promises');
  await chmod(dir, 0o755);
  const db = await startEmbeddedPostgres({ dataDir: dir });
  return {
    url: db.connectionString,
    label: 'embedded PostgreSQL 18',
    close: async () => {
      await db.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
