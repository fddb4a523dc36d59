-- Issue 23: the re-check after registration is read from the items' own checks (the item's last
-- check and its `pledges` findings, pledges.queries.ts), never copied, so it cannot go stale; the
-- two columns 0069 added for a copy are dropped unused.
ALTER TABLE pledge_events DROP COLUMN registry_checked_at, DROP COLUMN registry_found;
