import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

// Loaded into the load benchmark's app (`node --import`): each second, the longest the app's event
// loop was kept from running its callbacks (a request waits at least that long), for the timeline.
// A worker thread inherits `--import` and runs this too; its loop (an upload's reader, busy with
// the file at idle priority) keeps no request waiting, so only the main thread reports.
if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    process.stderr.write(`EVENT_LOOP ${Date.now()} ${(delay.max / 1e6).toFixed(1)}\n`);
    delay.reset();
  }, 1000).unref();
}
