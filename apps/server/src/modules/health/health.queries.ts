import type { Queryable } from '../../db/pool.ts';

/** The given migration versions the database has not applied; one small indexed read. */
export async function findPendingMigrations(db: Queryable, versions: string[]): Promise<string[]> {
  const { rows } = await db.query<{ version: string }>(
    `SELECT v.version FROM unnest($1::text[]) AS v(version)
      WHERE NOT EXISTS (SELECT 1 FROM schema_migrations m WHERE m.version = v.version)
      ORDER BY v.version`,
    [versions],
  );
  return rows.map((row) => row.version);
}
