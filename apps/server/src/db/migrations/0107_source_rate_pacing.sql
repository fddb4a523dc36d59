-- The rate limit of remote sources spaces its admissions evenly (modules/checks/sources/
-- request-budget.ts). The sliding window of 0106 alone let a whole second's requests through at the
-- window's opening: the provider saw bursts of `rate` requests in a few tens of ms, then nothing, and
-- the next burst arriving a little early or the last one a little late put more than `rate` into one
-- of its seconds (the providers benchmark: 237 at a limit of 200). Spaced one interval apart
-- (window / rate), a request delivered late or early moves the count of a provider's second by one,
-- not by a burst. The window stays as the hard bound of the admissions.

-- The generic cell rate algorithm's theoretical time of the next send: a request is admitted when
-- the clock has reached it (less the burst allowance), and it moves on one interval per admission.
ALTER TABLE source_rate_slots ADD COLUMN paced_until timestamptz NOT NULL DEFAULT '-infinity';
COMMENT ON COLUMN source_rate_slots.paced_until IS
  'the theoretical time of the next admission (take_source_send): one spacing interval per admission';

DROP FUNCTION take_source_send(text, integer, float8, boolean);

-- One admission attempt. Admits (records sent_at = now) when fewer than p_rate sends of the source
-- fall into the last p_window_ms and the pacing allows it (now ≥ paced_until − p_burst_ms); otherwise
-- returns how long to wait: a first ask (p_queued false) is given the next wake-up time in line, a
-- waiter that already waited its turn (p_queued true) is told exactly when it may be admitted.
-- paced_until moves from greatest(paced_until, now − p_burst_ms): a waiter that comes a little late
-- (its timer, the database's answer) does not lose the interval it was late by, and after an idle
-- spell at most p_burst_ms / p_spacing_ms + 1 requests go at once. p_spacing_ms 0: no pacing (0106).
-- Runs in its own statement's transaction: the row lock is held until commit, and each statement
-- below takes a new snapshot after the lock (VOLATILE, READ COMMITTED), so it sees every admission
-- committed before it.
CREATE FUNCTION take_source_send(
  p_type text, p_rate integer, p_window_ms float8, p_queued boolean,
  p_spacing_ms float8 DEFAULT 0, p_burst_ms float8 DEFAULT 0)
RETURNS TABLE (admitted boolean, sent_at_ms float8, wait_ms float8)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_spacing interval := p_spacing_ms * interval '1 millisecond';
  v_burst interval := p_burst_ms * interval '1 millisecond';
  v_next timestamptz;
  v_paced timestamptz;
  v_now timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
BEGIN
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.next_slot, s.paced_until INTO v_next, v_paced;
  -- After the lock: the clock of the admission, never earlier than any admission before it.
  v_now := clock_timestamp();
  -- The p_rate-th newest send in the window: while it is there, the window is full.
  SELECT r.sent_at INTO v_blocker FROM source_rate_sends r
   WHERE r.source_type = p_type AND r.sent_at > v_now - v_window
   ORDER BY r.sent_at DESC OFFSET greatest(p_rate, 1) - 1 LIMIT 1;
  IF v_blocker IS NULL AND p_rate > 0 AND v_now >= v_paced - v_burst THEN
    INSERT INTO source_rate_sends (source_type, sent_at) VALUES (p_type, v_now);
    DELETE FROM source_rate_sends r WHERE r.source_type = p_type AND r.sent_at <= v_now - v_window;
    UPDATE source_rate_slots SET paced_until = greatest(v_paced, v_now - v_burst) + v_spacing
     WHERE source_type = p_type;
    RETURN QUERY SELECT true, extract(epoch FROM v_now)::float8 * 1000, 0::float8;
    RETURN;
  END IF;
  -- Room again when the blocker leaves the window and the pacing has come round.
  v_at := greatest(coalesce(v_blocker + v_window, v_now), v_paced - v_burst);
  IF v_blocker IS NULL AND p_rate <= 0 THEN
    v_at := v_now + v_window;
  END IF;
  IF NOT p_queued THEN
    v_at := greatest(v_next, v_at);
    UPDATE source_rate_slots
       SET next_slot = v_at + CASE WHEN p_spacing_ms > 0 THEN v_spacing ELSE v_window / greatest(p_rate, 1) END
     WHERE source_type = p_type;
  END IF;
  RETURN QUERY SELECT false, NULL::float8, extract(epoch FROM v_at - v_now)::float8 * 1000;
END $$;
