-- «Last checked» per range of identifiers instead of per item (issue #15). A run's batch checks
-- every active item of one kind in an identifier range; stamping each of its items rewrote a row and
-- two index entries per item, ~40 % of a repeated run over a million items. Now a batch writes one
-- row per range here, and an item's last check is derived (item_last_checked_at below):
--   · monitoring_item_checks.unranged_since IS NULL: the item is «ranged»: active, checked by a
--     batch since it last became active, and its last check is the stamp of the range holding its
--     identifier (exactly one: the ranges of an organisation and kind never overlap);
--   · otherwise its own stamp, monitoring_item_checks.last_checked_at (NULL: never checked). New
--     items, items paused or archived (their stamp frozen as they leave), and stamps written
--     through monitoring_items.last_checked_at (fixtures, the demo seed) are «unranged».
-- A batch turns the unranged active items of its range ranged (only new and resumed ones: after
-- the first run a repeated run writes no per-item row at all).

-- Identifier ranges compare as the identifiers do (the database collation, as the identity index).
CREATE TYPE pw_identifier_range AS RANGE (subtype = text);

CREATE TABLE monitoring_check_ranges (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  kind text NOT NULL,
  identifiers pw_identifier_range NOT NULL,
  checked_at timestamptz NOT NULL
);
-- The range holding an identifier: the one with the greatest lower bound at or below it (or the one
-- before, when that bound is exclusive and equal).
CREATE INDEX monitoring_check_ranges_lookup_idx
  ON monitoring_check_ranges (organisation_id, kind, lower(identifiers));
-- Ranges by stamp: the list sorted by last check reads them in this order (then each range's items).
CREATE INDEX monitoring_check_ranges_sort_idx ON monitoring_check_ranges (organisation_id, kind, checked_at);

ALTER TABLE monitoring_item_checks
  ADD COLUMN identifier text,
  ADD COLUMN unranged_since timestamptz;
UPDATE monitoring_item_checks c SET identifier = i.identifier, unranged_since = now()
  FROM monitoring_items i WHERE i.id = c.item_id;
ALTER TABLE monitoring_item_checks ALTER COLUMN identifier SET NOT NULL;

-- Ranged items in identifier order (the list sorted by last check walks ranges, then these).
CREATE INDEX monitoring_item_checks_ranged_idx
  ON monitoring_item_checks (organisation_id, kind, identifier) INCLUDE (item_id) WHERE unranged_since IS NULL;
-- Unranged items by their own stamp (the list's other half), and by identifier (what a batch turns ranged).
CREATE INDEX monitoring_item_checks_own_idx
  ON monitoring_item_checks (organisation_id, kind, last_checked_at, item_id) WHERE unranged_since IS NOT NULL;
CREATE INDEX monitoring_item_checks_unranged_idx
  ON monitoring_item_checks (organisation_id, kind, identifier) WHERE unranged_since IS NOT NULL;
DROP INDEX monitoring_item_checks_sort_idx;

-- The one definition of an item's last check (list, card, reports, dashboard read it).
CREATE FUNCTION item_last_checked_at(item uuid) RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN c.unranged_since IS NOT NULL THEN c.last_checked_at
              ELSE (SELECT r.checked_at
                      FROM (SELECT s.identifiers, s.checked_at FROM monitoring_check_ranges s
                             WHERE s.organisation_id = c.organisation_id AND s.kind = c.kind
                               AND lower(s.identifiers) <= c.identifier
                             ORDER BY lower(s.identifiers) DESC LIMIT 2) r
                     WHERE r.identifiers @> c.identifier LIMIT 1) END
    FROM monitoring_item_checks c WHERE c.item_id = item
$$;

-- The first n ranged items of a kind by last check (their range's stamp), ties by id, for the items
-- list: ranges by stamp, each stamp's items (one range, or the pieces of one) sorted by id, stopping
-- at n. A loop, not one query: the planner cannot know that a range holds a batch of items and,
-- without fresh statistics of these tables, sorted all ranged items for a page.
CREATE FUNCTION ranged_items_by_check(org uuid, item_kind text, descending boolean, n bigint)
RETURNS TABLE (item_id uuid, checked_at timestamptz) LANGUAGE plpgsql STABLE AS $$
DECLARE
  stamp timestamptz;
  taken bigint := 0;
  added bigint;
BEGIN
  IF n <= 0 THEN
    RETURN;
  END IF;
  FOR stamp IN
    SELECT s.checked_at FROM monitoring_check_ranges s
     WHERE s.organisation_id = org AND s.kind = item_kind
     GROUP BY s.checked_at
     ORDER BY CASE WHEN NOT descending THEN s.checked_at END, CASE WHEN descending THEN s.checked_at END DESC
  LOOP
    RETURN QUERY
      SELECT g.item_id, stamp
        FROM monitoring_check_ranges s CROSS JOIN LATERAL (
          -- OFFSET 0: one index range scan per range, never a join over all ranged items.
          SELECT c.item_id FROM monitoring_item_checks c
           WHERE c.organisation_id = org AND c.kind = item_kind AND c.unranged_since IS NULL
             AND c.identifier >= lower(s.identifiers) AND c.identifier <= upper(s.identifiers)
             AND s.identifiers @> c.identifier
          OFFSET 0) g
       WHERE s.organisation_id = org AND s.kind = item_kind AND s.checked_at = stamp
       ORDER BY CASE WHEN NOT descending THEN g.item_id END, CASE WHEN descending THEN g.item_id END DESC
       LIMIT n - taken;
    GET DIAGNOSTICS added = ROW_COUNT;
    taken := taken + added;
    EXIT WHEN taken >= n;
  END LOOP;
END $$;

-- New items start unranged, with the stamp they were written with.
CREATE OR REPLACE FUNCTION monitoring_item_checks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_checks (item_id, organisation_id, kind, last_checked_at, identifier, unranged_since)
  SELECT id, organisation_id, kind, last_checked_at, identifier, now() FROM new_rows;
  RETURN NULL;
END $$;

-- A write of monitoring_items.last_checked_at is the item's own stamp: it leaves the ranges.
CREATE OR REPLACE FUNCTION monitoring_item_checks_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_item_checks SET last_checked_at = NEW.last_checked_at, unranged_since = now()
   WHERE item_id = NEW.id;
  RETURN NULL;
END $$;

-- An item leaving «active» keeps the last check it had (later batches do not check it): frozen as
-- its own stamp. Coming back it stays unranged until a batch checks it.
CREATE FUNCTION monitoring_item_checks_deactivated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_item_checks SET last_checked_at = item_last_checked_at(NEW.id), unranged_since = now()
   WHERE item_id = NEW.id AND unranged_since IS NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_checks_deactivate AFTER UPDATE OF status ON monitoring_items
  FOR EACH ROW WHEN (OLD.status = 'active' AND NEW.status <> 'active')
  EXECUTE FUNCTION monitoring_item_checks_deactivated();
