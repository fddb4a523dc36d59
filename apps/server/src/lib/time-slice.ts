import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long CPU work on the server's one thread (an upload's validation) gives the event loop back after
 * every `sliceMs` of work, not after a fixed number of steps: a request that arrives meanwhile waits
 * at most one slice per step of its own (its queries' answers, its reply), whatever a step of the
 * work costs. With 500 rows a turn (~10 ms) every request of the load benchmark waited ~60 ms while
 * a 100,000-row file was validated (docs/performance.md).
 */
export function timeSlicer(sliceMs: number, now: () => number = () => performance.now()) {
  let sliceStart = now();
  return {
    /** Call between steps of the work: resolves at once within a slice, else after a turn of the loop. */
    async pause(): Promise<void> {
      if (now() - sliceStart < sliceMs) {
        return;
      }
      await nextTurn();
      sliceStart = now();
    },
  };
}
