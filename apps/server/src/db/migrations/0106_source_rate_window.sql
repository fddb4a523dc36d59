-- The rate limit of remote sources as a sliding window of recorded sends (modules/checks/sources/
-- request-budget.ts), replacing the spaced slots of 0063. A slot that its waiter reached late was
-- given up and a new one taken, so under load most of the limit went unused; here a request is
-- admitted only while fewer than the limit were sent in the window, and its send time is recorded
-- in the same call, so the bound holds by construction and a late waiter simply asks again.

-- Every admitted request of a source, at the database's clock when it was admitted. Rows older than
-- the window are deleted by the next admission of the same source.
CREATE TABLE source_rate_sends (
  source_type text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX source_rate_sends_source_sent ON source_rate_sends (source_type, sent_at);

-- source_rate_slots keeps one row per source: its lock (orders admissions across processes) and
-- next_slot, now only the wake-up time given to the next waiter so that waiters ask one after
-- another instead of all at once.
COMMENT ON COLUMN source_rate_slots.next_slot IS
  'the wake-up time for the next waiter of a full window (take_source_send); not a reservation';

-- One admission attempt. Admits (records sent_at = now) when fewer than p_rate sends of the source
-- fall into the last p_window_ms; otherwise returns how long to wait: a first ask (p_queued false)
-- is given the next wake-up time in line, a waiter that already waited its turn (p_queued true) is
-- told exactly when the window has room, keeping its place. Runs in its own statement's transaction:
-- the row lock is held until commit, and each statement below takes a new snapshot after the lock
-- (a VOLATILE function in READ COMMITTED), so it sees every admission committed before it.
CREATE FUNCTION take_source_send(p_type text, p_rate integer, p_window_ms float8, p_queued boolean)
RETURNS TABLE (admitted boolean, sent_at_ms float8, wait_ms float8)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_next timestamptz;
  v_now timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
BEGIN
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.next_slot INTO v_next;
  -- After the lock: the clock of the admission, never earlier than any admission before it.
  v_now := clock_timestamp();
  -- The p_rate-th newest send in the window: while it is there, the window is full.
  SELECT r.sent_at INTO v_blocker FROM source_rate_sends r
   WHERE r.source_type = p_type AND r.sent_at > v_now - v_window
   ORDER BY r.sent_at DESC OFFSET greatest(p_rate, 1) - 1 LIMIT 1;
  IF v_blocker IS NULL AND p_rate > 0 THEN
    INSERT INTO source_rate_sends (source_type, sent_at) VALUES (p_type, v_now);
    DELETE FROM source_rate_sends r WHERE r.source_type = p_type AND r.sent_at <= v_now - v_window;
    RETURN QUERY SELECT true, extract(epoch FROM v_now)::float8 * 1000, 0::float8;
    RETURN;
  END IF;
  -- The window has room again when the blocker leaves it.
  v_at := coalesce(v_blocker + v_window, v_now + v_window);
  IF NOT p_queued THEN
    v_at := greatest(v_next, v_at);
    UPDATE source_rate_slots SET next_slot = v_at + v_window / greatest(p_rate, 1)
     WHERE source_type = p_type;
  END IF;
  RETURN QUERY SELECT false, NULL::float8, extract(epoch FROM v_at - v_now)::float8 * 1000;
END $$;
