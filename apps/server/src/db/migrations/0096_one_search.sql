-- One search (issue #24): the header's search box finds a VIN or its part, a contract, registration
-- or document number in the pledge registry and a number or identifier among one-time checks. Each
-- table gets one trigram index over the text a search matches (the items have theirs since 0025), so
-- a part of a number is found without reading the organisation's rows.

-- The registry's searched text. array_to_string is only STABLE (it may call a type's output
-- function); on text[] its result never changes, which the index needs declared.
CREATE FUNCTION pw_pledge_event_search_text(
  contract_number text, registration_number text, registered_number text, pledgor_identifier text, vins text[]
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(contract_number || ' ' || coalesce(registration_number, '') || ' ' || coalesce(registered_number, '')
               || ' ' || pledgor_identifier || ' ' || array_to_string(vins, ' '))
$$;

CREATE INDEX pledge_events_search_idx ON pledge_events USING gin (
  pw_pledge_event_search_text(contract_number, registration_number, registered_number, pledgor_identifier, vins)
  gin_trgm_ops
);

CREATE INDEX one_time_checks_search_idx ON one_time_checks USING gin (lower(number || ' ' || identifier) gin_trgm_ops);
