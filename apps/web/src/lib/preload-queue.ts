import { ROUTE_PRELOAD_CONCURRENCY } from '@/config/constants';

type Task<K> = { key: K; run: () => Promise<unknown> };

/** A tiny queue that runs at most `limit` loads at once and each key only once (until it fails). */
export function createPreloadQueue<K = string>(limit: number = ROUTE_PRELOAD_CONCURRENCY) {
  const pending: Task<K>[] = [];
  const seen = new Set<K>();
  let running = 0;

  const pump = () => {
    while (running < limit && pending.length > 0) {
      const task = pending.shift();
      if (!task) {
        return;
      }
      running += 1;
      task
        .run()
        .catch(() => {
          // A failed preload is retried by the real navigation, which also handles the error.
          seen.delete(task.key);
        })
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };

  return {
    /** Queues a load; `urgent` (hover) jumps ahead of idle-time preloads. */
    add(key: K, run: () => Promise<unknown>, urgent = false) {
      if (seen.has(key)) {
        return;
      }
      seen.add(key);
      if (urgent) {
        pending.unshift({ key, run });
      } else {
        pending.push({ key, run });
      }
      pump();
    },
    get running() {
      return running;
    },
    get size() {
      return pending.length;
    },
  };
}
