import type { Queryable } from '../../../db/pool.ts';

/**
 * Lapse events of one Moscow day: for every live, registered pledge with a contract end date, the milestone
 * its days left have reached — 30 (8–30 days left), 7 (1–7) or 0 (from the day itself up to a week
 * after, so a job that did not run on the day catches up) — as an event on the pledge's first
 * monitored vehicle (else its pledgor's document). The key holds the pledge, the end date and the
 * milestone: each is written once (the partial unique index), a changed end date starts afresh.
 * Returns the new events' ids and organisations.
 */
export async function insertLapseEvents(
  db: Queryable,
  today: string,
): Promise<{ id: string; organisation_id: string }[]> {
  const { rows } = await db.query<{ id: string; organisation_id: string }>(
    `WITH due AS (
       SELECT p.id, p.organisation_id, p.contract_number, p.contract_date, p.contract_end_date,
              p.registration_number, p.pledgor_name, p.pledgor_document_type, p.pledgor_identifier,
              (p.contract_end_date - $1::date) AS days_left,
              CASE WHEN p.contract_end_date - $1::date > 7 THEN 30
                   WHEN p.contract_end_date - $1::date > 0 THEN 7
                   ELSE 0 END AS milestone
         FROM pledges p
        WHERE p.status <> 'excluded' AND p.contract_end_date IS NOT NULL
          -- registered, as the registry's lapse flag counts it: a draft has no term to lapse yet
          AND (p.registration_number IS NOT NULL OR EXISTS (
                SELECT 1 FROM pledge_events c JOIN pledge_packages cp ON cp.id = c.package_id
                 WHERE c.pledge_id = p.id AND c.kind = 'creation' AND cp.status = 'registered'))
          AND p.contract_end_date BETWEEN $1::date - 7 AND $1::date + 30
     )
     INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity,
                                    finding_key, before, after)
     SELECT d.organisation_id, item.id, NULL, 'pledges', 'pledge_term_lapse',
            CASE d.milestone WHEN 30 THEN 'medium' ELSE 'high' END,
            d.id || ':' || d.contract_end_date || ':' || d.milestone, NULL,
            jsonb_strip_nulls(jsonb_build_object(
              'registration_number', d.registration_number,
              'contract', d.contract_number || ' от ' || to_char(d.contract_date, 'DD.MM.YYYY'),
              'pledgor', d.pledgor_name,
              'contract_end_date', d.contract_end_date::text,
              'days_left', greatest(d.days_left, 0)))
       FROM due d
       CROSS JOIN LATERAL (
         SELECT i.id FROM (
           SELECT i.id, 0 AS rank, v.position
             FROM pledge_vehicles v
             JOIN monitoring_items i ON i.organisation_id = d.organisation_id AND i.kind = 'vin'
                                    AND i.identifier = v.vin AND i.document_type IS NULL
            WHERE v.pledge_id = d.id AND v.vin IS NOT NULL
           UNION ALL
           SELECT i.id, 1, 0
             FROM monitoring_items i
            WHERE i.organisation_id = d.organisation_id AND i.kind = 'document'
              AND i.identifier = d.pledgor_identifier AND i.document_type = d.pledgor_document_type
         ) i ORDER BY rank, position LIMIT 1
       ) item
     ON CONFLICT DO NOTHING
     RETURNING id, organisation_id`,
    [today],
  );
  return rows;
}
