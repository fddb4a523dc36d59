-- A checked upload with nothing to add (every row a repeat or refused) now ends by itself with its
-- counts instead of waiting for a confirmation that would import nothing. The ones already waiting
-- end the same way; their staged rows are dropped (their refused rows stay for the error file).
WITH ended AS (
  UPDATE uploads
  SET status = CASE WHEN rows_rejected > 0 THEN 'done_with_errors' ELSE 'done' END,
      finished_at = coalesce(finished_at, updated_at),
      updated_at = now()
  WHERE status = 'validated' AND rows_accepted = 0 AND rows_restored = 0
  RETURNING id
), items AS (
  DELETE FROM upload_item_rows WHERE upload_id IN (SELECT id FROM ended)
)
DELETE FROM upload_pledge_event_rows WHERE upload_id IN (SELECT id FROM ended);
