import pg from 'pg';

/**
 * Every table of the given schemas: its row count and an MD5 of its rows in a fixed order, so two
 * databases with equal fingerprints hold the same data (the backup tests compare a restore with its
 * source this way).
 */
export async function tableFingerprints(
  connectionString: string,
  schemas: string[] = ['public'],
): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1) ORDER BY 1`,
      [schemas],
    );
    const result: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ count: number; md5: string | null }>(
        `SELECT count(*)::int AS count, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS md5 FROM ${name} t`,
      );
      result[name] = `${rows[0]!.count} ${rows[0]!.md5 ?? '-'}`;
    }
    return result;
  } finally {
    await client.end();
  }
}
