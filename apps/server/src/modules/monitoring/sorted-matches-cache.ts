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

/** Sorts under way, by key: callers asking for the same stretch meanwhile wait for that sort. */
const sorting = new Map<string, Promise<SortedMatches>>();

/**
 * The stretch for `key`, sorted once for every caller that asks while it is being sorted, then kept.
 * After the list changes (an upload's commit), a frequent term's first pages arrive many at a time:
 * each sorting every match on its own took both cores (issue #12, p99 1.57 s under load).
 */
export async function sortOnce(key: string, sort: () => Promise<SortedMatches>): Promise<SortedMatches> {
  const running = sorting.get(key);
  if (running) {
    try {
      return await running;
    } catch {
      // The caller that sorted failed (its statement cancelled, say); this caller sorts on its own.
    }
  }
  const own = sort();
  sorting.set(key, own);
  try {
    const entry = await own;
    keepMatches(key, entry);
    return entry;
  } finally {
    if (sorting.get(key) === own) {
      sorting.delete(key);
    }
  }
}
