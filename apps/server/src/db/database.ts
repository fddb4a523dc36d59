import type { AppConfig } from '../config/env.ts';
import { startEmbeddedPostgres } from './embedded.ts';

/** The configured PostgreSQL server, or an embedded one in DATA_DIR when DATABASE_URL is not set. */
export async function openDatabase(
  config: AppConfig,
  log: (message: string) => void,
): Promise<{ connectionString: string; embedded: boolean; stop: () => Promise<void> }> {
  if (config.databaseUrl) {
    return { connectionString: config.databaseUrl, embedded: false, stop: async () => {} };
  }
  log(`Starting embedded PostgreSQL in ${config.dataDir}/postgres ...`);
  const database = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    sharedBuffersMb: config.embeddedPgSharedBuffersMb,
  });
  return { ...database, embedded: true };
}
