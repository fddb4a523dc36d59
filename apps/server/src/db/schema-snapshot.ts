import path from 'node:path';
import type { Queryable } from './pool.ts';

/** Where the snapshot is committed. */
export const SCHEMA_SNAPSHOT_PATH = path.join(import.meta.dirname, 'schema.sql');

/**
 * The schema after all migrations, read from the catalogs of a migrated database and written as one
 * SQL-like text (`apps/server/src/db/schema.sql`), so that a review diff shows every table, index,
 * trigger and function change. Only the `public` schema, without what extensions own (pg_trgm's
 * functions) and without pg-boss's own schema. Each object is printed by PostgreSQL itself
 * (`pg_get_constraintdef`, `pg_get_indexdef`, `pg_get_triggerdef`, `pg_get_functiondef`,
 * `pg_get_viewdef`) and the sections are sorted, so the text is stable from run to run.
 * NOT NULL constraints, which PostgreSQL 18 also keeps as constraint rows, are shown on the column.
 */
export async function readSchemaSnapshot(db: Queryable): Promise<string> {
  const out: string[] = [
    '-- Generated from the catalogs of a database migrated to the newest migration; do not edit.',
    '-- Regenerate: npm run db:schema',
    '',
  ];

  const extensions = await db.query<{ extname: string }>(
    `SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname`,
  );
  for (const { extname } of extensions.rows) {
    out.push(`CREATE EXTENSION ${extname};`);
  }
  if (extensions.rows.length > 0) {
    out.push('');
  }

  // Enums, range types and domains (composite types of tables are the tables themselves).
  const types = await db.query<{ definition: string }>(
    `SELECT CASE t.typtype
              WHEN 'e' THEN format('CREATE TYPE %s AS ENUM (%s);', t.typname,
                (SELECT string_agg(quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder)
                   FROM pg_enum e WHERE e.enumtypid = t.oid))
              WHEN 'r' THEN format('CREATE TYPE %s AS RANGE (subtype = %s);', t.typname,
                (SELECT format_type(r.rngsubtype, NULL) FROM pg_range r WHERE r.rngtypid = t.oid))
              WHEN 'd' THEN format('CREATE DOMAIN %s AS %s;', t.typname, format_type(t.typbasetype, t.typtypmod))
            END AS definition
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' AND t.typtype IN ('e', 'r', 'd')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = t.oid AND d.deptype = 'e')
      ORDER BY t.typname`,
  );
  if (types.rows.length > 0) {
    out.push(...types.rows.map((row) => row.definition), '');
  }

  const sequences = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
      ORDER BY 1`,
  );
  for (const { name } of sequences.rows) {
    out.push(`CREATE SEQUENCE ${name};`);
  }
  if (sequences.rows.length > 0) {
    out.push('');
  }

  const tables = await db.query<{
    oid: number;
    name: string;
    kind: string;
    partition_of: string | null;
    bound: string | null;
    partition_key: string | null;
    unlogged: boolean;
  }>(
    `SELECT c.oid, c.relname AS name, c.relkind AS kind, c.relpersistence = 'u' AS unlogged,
            (SELECT p.relname FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
              WHERE i.inhrelid = c.oid LIMIT 1) AS partition_of,
            CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END AS bound,
            CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END AS partition_key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
      ORDER BY c.relname`,
  );
  const columns = await db.query<{
    table_oid: number;
    name: string;
    type: string;
    not_null: boolean;
    default_value: string | null;
    generated: string;
    identity: string;
  }>(
    `SELECT a.attrelid AS table_oid, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null, pg_get_expr(ad.adbin, ad.adrelid) AS default_value,
            a.attgenerated AS generated, a.attidentity AS identity
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attrelid, a.attnum`,
  );
  const constraints = await db.query<{ table_oid: number; name: string; definition: string }>(
    `SELECT con.conrelid AS table_oid, con.conname AS name, pg_get_constraintdef(con.oid, true) AS definition
       FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND con.contype <> 'n' AND con.conislocal
      ORDER BY con.conrelid, con.conname`,
  );
  for (const table of tables.rows) {
    if (table.partition_of && table.bound) {
      out.push(`CREATE TABLE ${table.name} PARTITION OF ${table.partition_of} ${table.bound};`);
    } else {
      const lines = columns.rows
        .filter((column) => column.table_oid === table.oid)
        .map((column) => {
          let line = `  ${column.name} ${column.type}`;
          if (column.generated === 's') {
            line += ` GENERATED ALWAYS AS (${column.default_value}) STORED`;
          } else if (column.identity) {
            line +=
              column.identity === 'a' ? ' GENERATED ALWAYS AS IDENTITY' : ' GENERATED BY DEFAULT AS IDENTITY';
          } else if (column.default_value !== null) {
            line += ` DEFAULT ${column.default_value}`;
          }
          return column.not_null ? `${line} NOT NULL` : line;
        });
      const create = table.unlogged ? 'CREATE UNLOGGED TABLE' : 'CREATE TABLE';
      const tail = table.partition_key ? ` PARTITION BY ${table.partition_key}` : '';
      out.push(`${create} ${table.name} (\n${lines.join(',\n')}\n)${tail};`);
    }
    for (const constraint of constraints.rows.filter((row) => row.table_oid === table.oid)) {
      out.push(`ALTER TABLE ${table.name} ADD CONSTRAINT ${constraint.name} ${constraint.definition};`);
    }
    out.push('');
  }

  const indexes = await db.query<{ definition: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u', 'x'))
        AND NOT EXISTS (SELECT 1 FROM pg_inherits inh WHERE inh.inhrelid = i.indexrelid)
      ORDER BY t.relname, ic.relname`,
  );
  if (indexes.rows.length > 0) {
    out.push(...indexes.rows.map((row) => `${row.definition};`), '');
  }

  const views = await db.query<{ name: string; materialized: boolean; definition: string }>(
    `SELECT c.relname AS name, c.relkind = 'm' AS materialized, pg_get_viewdef(c.oid, true) AS definition
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm') ORDER BY c.relname`,
  );
  for (const view of views.rows) {
    const kind = view.materialized ? 'MATERIALIZED VIEW' : 'VIEW';
    out.push(`CREATE ${kind} ${view.name} AS\n${view.definition.trim()}`, '');
  }

  const functions = await db.query<{ definition: string }>(
    `SELECT pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype IN ('e', 'i'))
      ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`,
  );
  for (const fn of functions.rows) {
    out.push(`${fn.definition.trim()};`, '');
  }

  const triggers = await db.query<{ definition: string }>(
    `SELECT pg_get_triggerdef(tg.oid, true) AS definition
       FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT tg.tgisinternal AND tg.tgparentid = 0
      ORDER BY c.relname, tg.tgname`,
  );
  if (triggers.rows.length > 0) {
    out.push(...triggers.rows.map((row) => `${row.definition};`), '');
  }

  return `${out
    .join('\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd()}\n`;
}

/** The names of the triggers and SQL functions in the snapshot, for the data-path inventory's test. */
export async function listTriggersAndFunctions(
  db: Queryable,
): Promise<{ triggers: string[]; functions: string[] }> {
  const triggers = await db.query<{ name: string }>(
    `SELECT c.relname || '.' || tg.tgname AS name
       FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT tg.tgisinternal AND tg.tgparentid = 0 ORDER BY 1`,
  );
  const functions = await db.query<{ name: string }>(
    `SELECT DISTINCT p.proname AS name
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype IN ('e', 'i'))
      ORDER BY 1`,
  );
  return { triggers: triggers.rows.map((r) => r.name), functions: functions.rows.map((r) => r.name) };
}
