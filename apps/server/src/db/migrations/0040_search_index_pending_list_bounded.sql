-- Searches during an import (issue #12). 0025 let an import's trigram entries wait in the index's
-- pending list (up to 2 GB) for a merge after its commit. But every search reads the whole pending
-- list: while a 100,000-row import ran, each search of every user scanned its ~140 MB (a VIN-part
-- search 14 → 88 ms of CPU), and at 200 requests/s the searches alone took both cores.
-- With PostgreSQL's default 4 MB the inserting backend merges the list as it grows instead. Measured
-- on PostgreSQL 15 (docs/performance.md): 100,000 rows 4.4 s + 0.3 s merge → 4.7 s; a million
-- 42.5 s + 3.5 s merge → 51.6 s; searches stay at their usual cost throughout.
ALTER INDEX monitoring_items_search_text_idx SET (gin_pending_list_limit = 4096);
ALTER INDEX statistics_labels_search_idx SET (gin_pending_list_limit = 4096);
