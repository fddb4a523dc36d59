import { monitorEventLoopDelay } from 'node:perf_hooks';

// Loaded into the load benchmark's app (`node --import`): each second, the longest the app's event
// loop was kept from running its callbacks (a request waits at least that long), for the timeline.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
setInterval(() => {
  process.stderr.write(`EVENT_LOOP ${Date.now()} ${(delay.max / 1e6).toFixed(1)}\n`);
  delay.reset();
}, 1000).unref();
