/**
 * Stretches of a frequent term's matches in one sort order (ids in order and the exact number of
 * matches), kept for the next pages and repeats of the same search. An entry is valid only for the
 * revision of the organisation's list it was read at (monitoring_item_revisions, 0036); the caller
 * checks that in the statement that reads the page.
 */
export interface SortedMatches {
  revision: string;
  /** Offset of ids[0] among all matches. */
  start: number;
  ids: string[];
  total: number;
}

/** Entries kept per server process: ~1,000 ids each, a few MB in all. */
const ENTRIES_MAX = 64;

const entries = new Map<string, SortedMatches>();

export function cachedMatches(key: string): SortedMatches | undefined {
  const entry = entries.get(key);
  if (entry) {
    // Most recently used last: the first key is the one to evict.
    entries.delete(key);
    entries.set(key, entry);
  }
  return entry;
}

export function keepMatches(key: string, entry: SortedMatches): void {
  entries.delete(key);
  entries.set(key, entry);
  while (entries.size > ENTRIES_MAX) {
    entries.delete(entries.keys().next().value!);
  }
}
