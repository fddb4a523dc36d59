/**
 * The revision of an organisation's items as an SQL expression, for the organisation whose id is
 * `organisationId` (an SQL expression): the sum of its monitoring_item_revisions marks (0036). It
 * grows with every committed insert, delete or edit of what a list shows, filters, matches or sorts
 * by, so an equal revision means the same items. Read by the items list's kept sorts and by the
 * checks engine (plan reuse, fingerprints).
 */
export const itemsRevisionSql = (organisationId: string) =>
  `(SELECT coalesce(sum(marks), 0) FROM monitoring_item_revisions WHERE organisation_id = ${organisationId})`;
