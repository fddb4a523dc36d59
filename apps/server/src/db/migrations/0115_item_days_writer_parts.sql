-- A form's add, an edit, an archive or a delete of an organisation's items waited for its running
-- upload import (issue #31): the import's statement upserted the organisation's rows of
-- statistics_item_days (today, its kind) and statistics_label_item_days (today, its labels) and held
-- them until its commit, seconds at 100,000 rows, while the form's statement upserted the same rows.
-- The key now takes a writer part: an import's statement (it defers the label dictionary, 0033)
-- writes the part of its backend's pid, which no other open transaction has; every other write
-- part 0. Readers already sum per key. Take-offs (edits, archives, deletes) add negative amounts to
-- part 0 instead of updating the key's rows, so they never wait for an import's part either.
CREATE FUNCTION statistics_writer_part() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN current_setting('pledgewatch.defer_label_dictionary', true) = 'on' THEN pg_backend_pid() ELSE 0 END
$$;

ALTER TABLE statistics_item_days ADD COLUMN part integer NOT NULL DEFAULT 0;
ALTER TABLE statistics_item_days DROP CONSTRAINT statistics_item_days_pkey;
ALTER TABLE statistics_item_days ADD CONSTRAINT statistics_item_days_pkey PRIMARY KEY (organisation_id, day, kind, part);
ALTER TABLE statistics_label_item_days ADD COLUMN part integer NOT NULL DEFAULT 0;
ALTER TABLE statistics_label_item_days DROP CONSTRAINT statistics_label_item_days_pkey;
ALTER TABLE statistics_label_item_days
  ADD CONSTRAINT statistics_label_item_days_pkey PRIMARY KEY (organisation_id, label, day, kind, part);

CREATE OR REPLACE FUNCTION statistics_items_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_item_days AS s (organisation_id, day, kind, part, added, archived)
  SELECT organisation_id, day, kind, statistics_writer_part(), sum(added), sum(archived)
    FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added, 0 AS archived
            FROM statistics_new_items
          UNION ALL
          SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_new_items WHERE archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (organisation_id, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$$;

-- The whole organisation going (its row already deleted): its rows go by the cascade.
CREATE OR REPLACE FUNCTION statistics_items_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added, archived)
  SELECT organisation_id, day, kind, -sum(added), -sum(archived)
    FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added,
                 0 AS archived
            FROM statistics_old_items
          UNION ALL
          SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_old_items WHERE archived_at IS NOT NULL) x
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = x.organisation_id)
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (organisation_id, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION statistics_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.created_at, OLD.kind, OLD.organisation_id) IS DISTINCT FROM (NEW.created_at, NEW.kind, NEW.organisation_id) THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added)
    VALUES (OLD.organisation_id, (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date, OLD.kind, -1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET added = s.added - 1;
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET added = s.added + 1;
  END IF;
  IF OLD.archived_at IS NOT NULL THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, archived)
    VALUES (OLD.organisation_id, (OLD.archived_at AT TIME ZONE 'Europe/Moscow')::date, OLD.kind, -1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET archived = s.archived - 1;
  END IF;
  IF NEW.archived_at IS NOT NULL THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, archived)
    VALUES (NEW.organisation_id, (NEW.archived_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET archived = s.archived + 1;
  END IF;
  RETURN NULL;
END
$$;

-- Adds (+1) or takes off (-1) one item's contribution to statistics_label_item_days, in part 0.
CREATE OR REPLACE FUNCTION statistics_label_count_item(p_org uuid, p_label text, p_kind text, p_created timestamptz,
                                                       p_archived timestamptz, p_sign integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO statistics_labels (organisation_id, label)
  SELECT p_org, lower(p_label) WHERE p_label IS NOT NULL AND p_sign > 0
  ON CONFLICT DO NOTHING;
  INSERT INTO statistics_label_item_days AS s (organisation_id, label, day, kind, added, archived)
  SELECT p_org, lower(p_label), day, p_kind, p_sign * sum(added), p_sign * sum(arch)
    FROM (SELECT (p_created AT TIME ZONE 'Europe/Moscow')::date AS day, 1 AS added, 0 AS arch
          UNION ALL
          SELECT (p_archived AT TIME ZONE 'Europe/Moscow')::date, 0, 1 WHERE p_archived IS NOT NULL) x
   WHERE p_label IS NOT NULL
   GROUP BY day
   ORDER BY day
  ON CONFLICT (organisation_id, label, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
$$;

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
  INSERT INTO statistics_label_item_days AS s (organisation_id, label, day, kind, part, added, archived)
  SELECT organisation_id, label, day, kind, statistics_writer_part(), sum(added), sum(archived)
    FROM (SELECT organisation_id, lower(label) AS label, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind,
                 1 AS added, 0 AS archived
            FROM statistics_label_new_items WHERE label IS NOT NULL
          UNION ALL
          SELECT organisation_id, lower(label), (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_label_new_items WHERE label IS NOT NULL AND archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (organisation_id, label, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$$;
