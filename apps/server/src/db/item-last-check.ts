/**
 * An item's last check as an SQL expression, for the item whose id is `itemId` (an SQL expression):
 * its own stamp while unranged, else the stamp of the check range holding its identifier
 * (0030_range_check_stamps.sql). The same as the function item_last_checked_at() there, inlined:
 * a subquery costs about half a function call per row, which a million-row report feels.
 */
export const itemLastCheckedSql = (itemId: string) =>
  `(SELECT CASE WHEN c.unranged_since IS NOT NULL THEN c.last_checked_at
                ELSE (SELECT r.checked_at
                        FROM (SELECT s.identifiers, s.checked_at FROM monitoring_check_ranges s
                               WHERE s.organisation_id = c.organisation_id AND s.kind = c.kind
                                 AND lower(s.identifiers) <= c.identifier
                               ORDER BY lower(s.identifiers) DESC LIMIT 2) r
                       WHERE r.identifiers @> c.identifier LIMIT 1) END
      FROM monitoring_item_checks c WHERE c.item_id = ${itemId})`;
