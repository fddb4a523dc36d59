-- Issue 11, finding 5: the `pledges` check source used to put another organisation's pledgor, contract
-- number, pledgee INN and organisation id (`pledgeeOrganisationId`) into findings, which were stored
-- in finding snapshots, monitoring events (before/after) and one-time checks. From now on a tenant's
-- registration is shown as a public registry would show it, marked `verified: false` until the
-- registry source confirms it, and `own: true` for the checking organisation's own pledge
-- (sources/pledges.source.ts). This rewrites the stored payloads into exactly that shape, so nothing
-- leaks from history and the next run sees no difference (snapshot hashes are recomputed as
-- runs.queries.ts computes them).

CREATE FUNCTION pw_0011_scrub_pledge(payload jsonb, org uuid) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN payload IS NULL OR jsonb_typeof(payload) <> 'object' OR NOT payload ? 'pledgeeOrganisationId' THEN payload
    ELSE jsonb_strip_nulls(jsonb_build_object(
      'notice_number', payload -> 'notice_number',
      'status', payload -> 'status',
      'registered_at', payload -> 'registered_at',
      'pledgee', payload -> 'pledgee',
      'verified', false,
      'own', CASE WHEN payload ->> 'pledgeeOrganisationId' = org::text THEN true END))
  END
$$;

CREATE FUNCTION pw_0011_scrub_findings(findings jsonb, org uuid) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(
    (SELECT jsonb_agg(
              CASE WHEN f ? 'payload' THEN jsonb_set(f, '{payload}', pw_0011_scrub_pledge(f -> 'payload', org)) ELSE f END
              ORDER BY n)
       FROM jsonb_array_elements(findings) WITH ORDINALITY AS x (f, n)),
    '[]'::jsonb)
$$;

WITH scrubbed AS (
  SELECT s.item_id, pw_0011_scrub_findings(s.findings, s.organisation_id) AS findings
    FROM finding_snapshots s
   WHERE s.source_type = 'pledges' AND s.findings::text LIKE '%pledgeeOrganisationId%'
)
UPDATE finding_snapshots s
   SET findings = c.findings,
       hash = (SELECT md5(string_agg((e ->> 'key') || ':' || (e -> 'payload')::text, '|' ORDER BY e ->> 'key'))
                 FROM jsonb_array_elements(c.findings) e)
  FROM scrubbed c
 WHERE s.item_id = c.item_id AND s.source_type = 'pledges';

UPDATE monitoring_events
   SET before = pw_0011_scrub_pledge(before, organisation_id),
       after = pw_0011_scrub_pledge(after, organisation_id)
 WHERE source_type = 'pledges'
   AND (before ? 'pledgeeOrganisationId' OR after ? 'pledgeeOrganisationId');

UPDATE one_time_checks c
   SET sources = (
     SELECT jsonb_agg(
              CASE WHEN src ->> 'type' = 'pledges' AND jsonb_typeof(src -> 'findings') = 'array'
                   THEN jsonb_set(src, '{findings}', pw_0011_scrub_findings(src -> 'findings', c.organisation_id))
                   ELSE src END
              ORDER BY n)
       FROM jsonb_array_elements(c.sources) WITH ORDINALITY AS x (src, n))
 WHERE c.sources::text LIKE '%pledgeeOrganisationId%';

DROP FUNCTION pw_0011_scrub_findings(jsonb, uuid);
DROP FUNCTION pw_0011_scrub_pledge(jsonb, uuid);
