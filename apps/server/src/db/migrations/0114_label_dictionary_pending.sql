-- The statistics label dictionary after an upload's import (issue #31). The import leaves the
-- dictionary to its job (0033), which found the missing labels by comparing every day row of the
-- organisation with the dictionary: at a million items 0.6 s of reading (two tables of a million
-- rows hashed) before the 100,000 new entries, beside the API's requests as the import commits.
-- The deferring insert now notes its labels here, one row per statement and organisation, in the
-- import's transaction; the job drains the note. A crash between the commit and the job loses
-- nothing: the note commits with the rows and waits for the job's retry.
CREATE TABLE statistics_labels_pending (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  labels text[] NOT NULL
);
CREATE INDEX statistics_labels_pending_org_idx ON statistics_labels_pending (organisation_id);

CREATE OR REPLACE FUNCTION statistics_label_items_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pledgewatch.defer_label_dictionary', true) IS DISTINCT FROM 'on' THEN
    INSERT INTO statistics_labels (organisation_id, label)
    SELECT DISTINCT organisation_id, lower(label) FROM statistics_label_new_items WHERE label IS NOT NULL
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO statistics_labels_pending (organisation_id, labels)
    SELECT organisation_id, array_agg(DISTINCT lower(label)) FROM statistics_label_new_items
     WHERE label IS NOT NULL GROUP BY organisation_id;
  END IF;
  INSERT INTO statistics_label_item_days AS s (organisation_id, label, day, kind, added, archived)
  SELECT organisation_id, label, day, kind, sum(added), sum(archived)
    FROM (SELECT organisation_id, lower(label) AS label, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind,
                 1 AS added, 0 AS archived
            FROM statistics_label_new_items WHERE label IS NOT NULL
          UNION ALL
          SELECT organisation_id, lower(label), (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_label_new_items WHERE label IS NOT NULL AND archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (organisation_id, label, day, kind)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$$;

-- Labels an import committed before this migration and whose job had not filled them yet.
INSERT INTO statistics_labels (organisation_id, label)
SELECT DISTINCT d.organisation_id, d.label FROM statistics_label_item_days d
 WHERE NOT EXISTS (SELECT 1 FROM statistics_labels l WHERE l.organisation_id = d.organisation_id AND l.label = d.label)
 ORDER BY 1, 2
ON CONFLICT DO NOTHING;
