-- Portfolio import (issue #15): an upload's import leaves the statistics label dictionary to the
-- import job, right after its commit. The dictionary's rows and their trigram entries were ~2.9 s
-- of a 200,000-row import's ~10 s (one entry per distinct label: a portfolio of "<model> №i" labels
-- has as many as items). The day rows stay in the import transaction, so the label sums are exact
-- at once; only finding a new label by the statistics label filter waits for the job
-- (fillLabelDictionary: every label of the organisation's day rows missing from the dictionary, so
-- a retry after a crash between the two catches up too). Every other insert (the form, the pledge
-- registry) fills the dictionary in its own statement as before.
CREATE OR REPLACE FUNCTION statistics_label_items_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('pledgewatch.defer_label_dictionary', true) IS DISTINCT FROM 'on' THEN
    INSERT INTO statistics_labels (organisation_id, label)
    SELECT DISTINCT organisation_id, lower(label) FROM statistics_label_new_items WHERE label IS NOT NULL
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
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
