-- Bookings of provider requests that cost the same in a run's last minute as in its first, and a
-- lead before each booked time (modules/checks/sources/request-budget.ts).
--
-- The bookings (0109) were rows of source_rate_sends: each booking inserted one and deleted those
-- older than the window. The deleted rows stay in the index until a vacuum, and each booking's
-- delete walked past all of them: at 200 bookings a second one booking took 1.9 ms at first and
-- 4.3 ms after 90 s (17,600 dead rows, measured on PostgreSQL 15). Every booking of a source holds the
-- source's row lock, so that time capped the source's rate, and in the providers benchmark a run
-- fell from the limit to ~145 a second after its first minute (autovacuum's default pause is a
-- minute). Now the last p_rate booked times are an array in the source's own row
-- (source_rate_slots.recent_sends, in time order): its p_rate-th newest entry is exactly the
-- booking the window check looked for, and the row is rewritten in place (a HOT update) with no
-- index to walk.
--
-- The lead: a process now hands each booked request to a thread that sends it at its time, and a
-- request that would go out more than SEND_GUARD_MS late is not sent on that turn
-- (lib/outbound/punctual-request.ts); a booking for «now» reached that thread late whenever the
-- process's main thread was busy when the answer came (one in ten more than 13 ms after its time in
-- the benchmark), and each such turn was lost. With a lead the answer has that long to get there.

ALTER TABLE source_rate_slots ADD COLUMN recent_sends timestamptz[] NOT NULL DEFAULT '{}';

-- Bookings made before this release, still in the window, stay in it.
UPDATE source_rate_slots s
   SET recent_sends = coalesce(
     (SELECT array_agg(r.sent_at ORDER BY r.sent_at) FROM source_rate_sends r
       WHERE r.source_type = s.source_type AND r.sent_at > clock_timestamp() - interval '10 seconds'),
     '{}');

-- Reserves one request of a source: counted against the Moscow day p_day (the count and the spend
-- go up together while the count is below p_daily_limit; NULL: no limit), unless the provider
-- account p_account is paused by a Retry-After; then booked at the first time, no earlier than
-- p_lead_ms from now, at which fewer than p_rate bookings fall into the p_window_ms before it and the
-- pacing allows it (one per p_spacing_ms, p_burst_ms of slack after an idle spell: paced_until, the
-- generic cell rate algorithm of 0107). Bookings never go back in time, so recent_sends stays in
-- time order, and its p_rate-th newest entry is the one that blocks a full window.
-- outcome: 'reserved' (send_at_ms: the booked time, epoch ms; wait_ms: from now to it, both by the
-- database's clock), 'paused' (wait_ms: the pause left; nothing counted) or 'daily_limit' (nothing
-- counted or booked). The row locks are taken in one order (the source's rate row, then its day).
CREATE FUNCTION reserve_source_send(
  p_type text, p_day date, p_daily_limit integer, p_price numeric, p_account text,
  p_rate integer, p_window_ms float8, p_spacing_ms float8, p_burst_ms float8, p_lead_ms float8)
RETURNS TABLE (outcome text, send_at_ms float8, wait_ms float8)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_spacing interval := p_spacing_ms * interval '1 millisecond';
  v_burst interval := p_burst_ms * interval '1 millisecond';
  v_lead interval := p_lead_ms * interval '1 millisecond';
  v_paced timestamptz;
  v_recent timestamptz[];
  v_kept integer;
  v_now timestamptz;
  v_pause timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
  v_counted integer;
BEGIN
  IF p_rate < 1 THEN
    RAISE EXCEPTION 'reserve_source_send: p_rate must be at least 1 (got %)', p_rate;
  END IF;
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.paced_until, s.recent_sends INTO v_paced, v_recent;
  -- After the lock: no booking of this source can come between this clock and the update below.
  v_now := clock_timestamp();
  SELECT p.paused_until INTO v_pause FROM source_pauses p
   WHERE p.account = p_account AND p.paused_until > v_now;
  IF v_pause IS NOT NULL THEN
    RETURN QUERY SELECT 'paused'::text, NULL::float8, extract(epoch FROM v_pause - v_now)::float8 * 1000;
    RETURN;
  END IF;
  INSERT INTO source_request_days AS d (source_type, day, requests, spend)
  SELECT p_type, p_day, 1, p_price WHERE p_daily_limit IS NULL OR p_daily_limit > 0
  ON CONFLICT (source_type, day) DO UPDATE SET requests = d.requests + 1, spend = d.spend + p_price
   WHERE p_daily_limit IS NULL OR d.requests < p_daily_limit;
  GET DIAGNOSTICS v_counted = ROW_COUNT;
  IF v_counted = 0 THEN
    RETURN QUERY SELECT 'daily_limit'::text, NULL::float8, 0::float8;
    RETURN;
  END IF;
  v_kept := coalesce(cardinality(v_recent), 0);
  v_at := greatest(v_now + v_lead, v_paced - v_burst, coalesce(v_recent[v_kept], v_now));
  -- The p_rate-th newest booking: while it is in the window before v_at, the window is full.
  IF v_kept >= p_rate THEN
    v_blocker := v_recent[v_kept - p_rate + 1];
    IF v_blocker > v_at - v_window THEN
      v_at := v_blocker + v_window;
    END IF;
  END IF;
  UPDATE source_rate_slots
     SET paced_until = greatest(v_paced, v_at - v_burst) + v_spacing,
         recent_sends = (coalesce(v_recent, '{}') || v_at)[greatest(1, v_kept + 2 - p_rate):]
   WHERE source_type = p_type;
  RETURN QUERY SELECT 'reserved'::text, extract(epoch FROM v_at)::float8 * 1000,
    extract(epoch FROM v_at - v_now)::float8 * 1000;
END $$;

-- The previous release's processes call the 9-argument function while an upgrade rolls: it books
-- into the same array now (no lead), so both releases keep to one window.
CREATE OR REPLACE FUNCTION reserve_source_send(
  p_type text, p_day date, p_daily_limit integer, p_price numeric, p_account text,
  p_rate integer, p_window_ms float8, p_spacing_ms float8, p_burst_ms float8)
RETURNS TABLE (outcome text, send_at_ms float8, wait_ms float8)
LANGUAGE sql VOLATILE AS $$
  SELECT * FROM reserve_source_send(p_type, p_day, p_daily_limit, p_price, p_account,
    p_rate, p_window_ms, p_spacing_ms, p_burst_ms, 0)
$$;
