import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cloneTemplate } from '../testing/test-database.ts';
import { createPool } from './pool.ts';
import { readSchemaSnapshot, SCHEMA_SNAPSHOT_PATH } from './schema-snapshot.ts';

describe('the committed schema snapshot (schema.sql)', () => {
  let pool: ReturnType<typeof createPool>;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await cloneTemplate(inject('testDatabase'));
    drop = database.drop;
    pool = createPool(database.url, 2);
  });
  afterAll(async () => {
    await pool.end();
    await drop();
  });

  it('equals the schema of a database migrated to the newest migration', async () => {
    const committed = await readFile(SCHEMA_SNAPSHOT_PATH, 'utf8');
    const actual = await readSchemaSnapshot(pool);
    // On a difference: run `npm run db:schema` and commit apps/server/src/db/schema.sql.
    expect(actual === committed, 'schema.sql is stale: run `npm run db:schema` and commit it').toBe(true);
  });

  it('shows a trigger or function change (a planted change is caught)', async () => {
    const before = await readSchemaSnapshot(pool);
    await pool.query(
      `CREATE FUNCTION planted_breach() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
    );
    await pool.query(
      'CREATE TRIGGER planted_breach AFTER INSERT ON organisations FOR EACH ROW EXECUTE FUNCTION planted_breach()',
    );
    const after = await readSchemaSnapshot(pool);
    expect(after).not.toBe(before);
    expect(after).toContain('CREATE OR REPLACE FUNCTION public.planted_breach()');
    expect(after).toContain('CREATE TRIGGER planted_breach AFTER INSERT ON organisations');
  });
});
