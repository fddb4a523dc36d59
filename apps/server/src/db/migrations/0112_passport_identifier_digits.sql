-- A passport's identifier is its series and number, 10 ASCII digits: the identifier rules
-- (packages/identifiers, `^\d{10}$`) have refused anything else on every path that writes items
-- since the first release. The database now holds that rule too, so the passport list's batch
-- match (checks/passport-list) casts the identifier to its key without testing it first: the
-- test took a quarter of the match (1M passports against 100M: 1.77-2.06 s with it, 1.31-1.36 s
-- without; docs/performance.md).
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_passport_digits
  CHECK (document_type IS DISTINCT FROM 'passport_rf'
         OR (octet_length(identifier) = 10 AND identifier COLLATE "C" !~ '[^0-9]'));
