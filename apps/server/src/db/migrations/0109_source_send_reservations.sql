-- One round trip per provider request, and its send time fixed in advance (modules/checks/sources/
-- request-budget.ts). Until now a request cost three statements: count it against the day
-- (countRequest), ask take_source_send for a place in line, sleep, and ask again to be admitted; the
-- request went out when the admission's answer came back. In the providers benchmark each of those
-- statements handed the worker's core to the PostgreSQL backend it woke (a quarter of a worker's
-- time sat in the socket write of a query), and the admission reached the worker 5 ms late at the
-- median and over 50 ms late at p99: late admissions bunched at the provider (214 in its busiest
-- second at a limit of 200). reserve_source_send counts the request, reads the account's pause and
-- books its send time under the source's row lock in one call; the caller sleeps until that time
-- and sends, with no statement between the booking and the socket.

-- Reserves one request of a source: counted against the Moscow day p_day (the count and the spend
-- go up together while the count is below p_daily_limit; NULL: no limit), unless the provider
-- account p_account is paused by a Retry-After; then booked at the first time at which fewer than
-- p_rate sends fall into the p_window_ms before it and the pacing allows it (one per p_spacing_ms,
-- p_burst_ms of slack after an idle spell: paced_until, the generic cell rate algorithm of 0107).
-- Bookings never go back in time, so every recorded send is at or before the new one and the
-- window check below covers every window that holds it.
-- outcome: 'reserved' (send_at_ms: the booked time, epoch ms; wait_ms: from now to it, both by the
-- database's clock), 'paused' (wait_ms: the pause left; nothing counted) or 'daily_limit' (nothing
-- counted or booked). The row locks are taken in one order (the source's rate row, then its day).
CREATE FUNCTION reserve_source_send(
  p_type text, p_day date, p_daily_limit integer, p_price numeric, p_account text,
  p_rate integer, p_window_ms float8, p_spacing_ms float8, p_burst_ms float8)
RETURNS TABLE (outcome text, send_at_ms float8, wait_ms float8)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_spacing interval := p_spacing_ms * interval '1 millisecond';
  v_burst interval := p_burst_ms * interval '1 millisecond';
  v_paced timestamptz;
  v_now timestamptz;
  v_pause timestamptz;
  v_last timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
  v_counted integer;
BEGIN
  IF p_rate < 1 THEN
    RAISE EXCEPTION 'reserve_source_send: p_rate must be at least 1 (got %)', p_rate;
  END IF;
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.paced_until INTO v_paced;
  -- After the lock: no booking of this source can come between this clock and the insert below.
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
  SELECT max(r.sent_at) INTO v_last FROM source_rate_sends r WHERE r.source_type = p_type;
  v_at := greatest(v_now, v_paced - v_burst, coalesce(v_last, v_now));
  -- The p_rate-th newest send in the window before v_at: while it is there, the window is full.
  SELECT r.sent_at INTO v_blocker FROM source_rate_sends r
   WHERE r.source_type = p_type AND r.sent_at > v_at - v_window
   ORDER BY r.sent_at DESC OFFSET p_rate - 1 LIMIT 1;
  IF v_blocker IS NOT NULL THEN
    v_at := v_blocker + v_window;
  END IF;
  INSERT INTO source_rate_sends (source_type, sent_at) VALUES (p_type, v_at);
  DELETE FROM source_rate_sends r WHERE r.source_type = p_type AND r.sent_at <= v_now - v_window;
  UPDATE source_rate_slots SET paced_until = greatest(v_paced, v_at - v_burst) + v_spacing
   WHERE source_type = p_type;
  RETURN QUERY SELECT 'reserved'::text, extract(epoch FROM v_at)::float8 * 1000,
    extract(epoch FROM v_at - v_now)::float8 * 1000;
END $$;

-- take_source_send (0107) stays for processes of the previous release while an upgrade rolls; its
-- sends and these bookings share source_rate_sends, so both keep to one window.
