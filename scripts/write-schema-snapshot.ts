/**
 * `npm run db:schema`: migrates a throw-away embedded PostgreSQL 18 and writes the schema snapshot
 * (apps/server/src/db/schema.sql) from its catalogs. Run it after adding a migration and commit the
 * file; apps/server/src/db/schema-snapshot.test.ts fails while it is stale.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createPool } from '../apps/server/src/db/pool.ts';
import { readSchemaSnapshot, SCHEMA_SNAPSHOT_PATH } from '../apps/server/src/db/schema-snapshot.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-schema-'));
await chmod(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({ dataDir });
try {
  const pool = createPool(embedded.connectionString, 2);
  try {
    await migrate(pool);
    await writeFile(SCHEMA_SNAPSHOT_PATH, await readSchemaSnapshot(pool));
    console.log(`Wrote ${path.relative(process.cwd(), SCHEMA_SNAPSHOT_PATH)}`);
  } finally {
    await pool.end();
  }
} finally {
  await embedded.stop();
  await rm(dataDir, { recursive: true, force: true });
}
