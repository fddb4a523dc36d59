import type { Queryable } from '../pool.ts';

/**
 * The data path's bookkeeping (docs/data-path.md) as queries: for every rollup and counter table
 * that triggers keep, its rows summed per key and the same key counted from the source rows. Used
 * by db/data-path.test.ts and by any test of a path that writes many rows (the demo's history).
 */
export const ROLLUP_RECOUNTS: Record<string, { rollup: string; source: string }> = {
  monitoring_item_counts: {
    rollup: `SELECT organisation_id, kind, status, sum(items)::int AS n FROM monitoring_item_counts
              GROUP BY 1, 2, 3 HAVING sum(items) <> 0`,
    source: `SELECT organisation_id, kind, status, count(*)::int AS n FROM monitoring_items GROUP BY 1, 2, 3`,
  },
  monitoring_item_checks: {
    rollup: `SELECT item_id, organisation_id, kind, identifier, item_status, 1 AS n FROM monitoring_item_checks`,
    source: `SELECT id, organisation_id, kind, identifier, status, 1 AS n FROM monitoring_items`,
  },
  monitoring_event_unread_counts: {
    rollup: `SELECT organisation_id, event_type, source_type, severity, sum(events)::int AS n
               FROM monitoring_event_unread_counts GROUP BY 1, 2, 3, 4 HAVING sum(events) <> 0`,
    source: `SELECT organisation_id, event_type, source_type, severity, count(*)::int AS n
               FROM monitoring_events WHERE read_at IS NULL GROUP BY 1, 2, 3, 4`,
  },
  monitoring_event_severity_days: {
    rollup: `SELECT organisation_id, day, event_type, source_type, severity, sum(events)::int AS n
               FROM monitoring_event_severity_days GROUP BY 1, 2, 3, 4, 5 HAVING sum(events) <> 0`,
    source: `SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date, event_type, source_type,
                    severity, count(*)::int AS n FROM monitoring_events GROUP BY 1, 2, 3, 4, 5`,
  },
  statistics_event_days: {
    rollup: `SELECT organisation_id, day, event_type, source_type, item_kind, sum(events)::int AS n
               FROM statistics_event_days GROUP BY 1, 2, 3, 4, 5 HAVING sum(events) <> 0`,
    source: `SELECT e.organisation_id, (e.detected_at AT TIME ZONE 'Europe/Moscow')::date, e.event_type,
                    e.source_type, i.kind, count(*)::int AS n
               FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id GROUP BY 1, 2, 3, 4, 5`,
  },
  statistics_label_event_days: {
    rollup: `SELECT organisation_id, label, day, event_type, source_type, item_kind, sum(events)::int AS n
               FROM statistics_label_event_days GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(events) <> 0`,
    source: `SELECT e.organisation_id, lower(i.label), (e.detected_at AT TIME ZONE 'Europe/Moscow')::date,
                    e.event_type, e.source_type, i.kind, count(*)::int AS n
               FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
              WHERE i.label IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6`,
  },
  statistics_item_days: {
    rollup: `SELECT organisation_id, day, kind, sum(added)::int AS added, sum(archived)::int AS archived
               FROM statistics_item_days GROUP BY 1, 2, 3 HAVING sum(added) <> 0 OR sum(archived) <> 0`,
    source: `SELECT organisation_id, day, kind, sum(added)::int AS added, sum(archived)::int AS archived
               FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind,
                            1 AS added, 0 AS archived FROM monitoring_items
                     UNION ALL
                     SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
                       FROM monitoring_items WHERE archived_at IS NOT NULL) x
              GROUP BY 1, 2, 3`,
  },
  statistics_label_item_days: {
    rollup: `SELECT organisation_id, label, day, kind, sum(added)::int AS added, sum(archived)::int AS archived
               FROM statistics_label_item_days GROUP BY 1, 2, 3, 4 HAVING sum(added) <> 0 OR sum(archived) <> 0`,
    source: `SELECT organisation_id, label, day, kind, sum(added)::int AS added, sum(archived)::int AS archived
               FROM (SELECT organisation_id, lower(label) AS label, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day,
                            kind, 1 AS added, 0 AS archived FROM monitoring_items WHERE label IS NOT NULL
                     UNION ALL
                     SELECT organisation_id, lower(label), (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
                       FROM monitoring_items WHERE label IS NOT NULL AND archived_at IS NOT NULL) x
              GROUP BY 1, 2, 3, 4`,
  },
  // The dictionary is never pruned: it must hold every label an item has now (a superset).
  statistics_labels: {
    rollup: `SELECT DISTINCT l.organisation_id, l.label FROM statistics_labels l
              WHERE EXISTS (SELECT 1 FROM monitoring_items i
                             WHERE i.organisation_id = l.organisation_id AND lower(i.label) = l.label)`,
    source: `SELECT DISTINCT organisation_id, lower(label) FROM monitoring_items WHERE label IS NOT NULL`,
  },
  statistics_delivery_days: {
    rollup: `SELECT organisation_id, day, status, sum(deliveries)::int AS n FROM statistics_delivery_days
              GROUP BY 1, 2, 3 HAVING sum(deliveries) <> 0`,
    source: `SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date, status, count(*)::int AS n
               FROM notification_deliveries GROUP BY 1, 2, 3`,
  },
  statistics_one_time_check_days: {
    rollup: `SELECT organisation_id, day, kind, sum(checks)::int AS n FROM statistics_one_time_check_days
              GROUP BY 1, 2, 3 HAVING sum(checks) <> 0`,
    source: `SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date, kind, count(*)::int AS n
               FROM one_time_checks GROUP BY 1, 2, 3`,
  },
};

/** A query's rows as sorted JSON lines, to compare a rollup with its recount. */
export const rowsOf = async (db: Queryable, sql: string) =>
  (await db.query({ text: sql, rowMode: 'array' })).rows.map((row) => JSON.stringify(row)).sort();

/** The tables whose rollup differs from its recount, with both sides. */
export async function rollupsDifferingFromRecounts(
  db: Queryable,
): Promise<{ table: string; rollup: string[]; source: string[] }[]> {
  const differing = [];
  for (const [table, { rollup, source }] of Object.entries(ROLLUP_RECOUNTS)) {
    const [rollupRows, sourceRows] = [await rowsOf(db, rollup), await rowsOf(db, source)];
    if (JSON.stringify(rollupRows) !== JSON.stringify(sourceRows)) {
      differing.push({ table, rollup: rollupRows, source: sourceRows });
    }
  }
  return differing;
}
