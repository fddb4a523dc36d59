-- Error rows keep at most 500 characters of each value (the reader refuses longer cells since this
-- version). Rows stored before could hold a whole hostile cell (150 MB), which broke the upload's
-- detail and error file: clip them the same way.
UPDATE upload_errors e
   SET raw = ARRAY(
     SELECT CASE WHEN length(v) > 500 THEN left(v, 500) || '…' ELSE v END
       FROM unnest(e.raw) WITH ORDINALITY AS t(v, i)
      ORDER BY i)
 WHERE EXISTS (SELECT 1 FROM unnest(e.raw) AS v WHERE length(v) > 500);
