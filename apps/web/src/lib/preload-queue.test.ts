import { describe, expect, it } from 'vitest';
import { createPreloadQueue } from './preload-queue';

/** A load that finishes when the test says so, recording how many ran at once. */
function deferredLoads() {
  let active = 0;
  let peak = 0;
  const started: string[] = [];
  const finishers = new Map<string, (ok: boolean) => void>();
  const load = (key: string) => () => {
    started.push(key);
    active += 1;
    peak = Math.max(peak, active);
    return new Promise<void>((resolve, reject) => {
      finishers.set(key, (ok) => {
        active -= 1;
        if (ok) {
          resolve();
        } else {
          reject(new Error(`failed ${key}`));
        }
      });
    });
  };
  const finish = async (key: string, ok = true) => {
    finishers.get(key)?.(ok);
    // Let the queue's promise callbacks run.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { load, finish, started, peak: () => peak };
}

describe('createPreloadQueue', () => {
  it('runs at most four loads at once by default (the seed: up to 4 routes in parallel)', async () => {
    const loads = deferredLoads();
    const queue = createPreloadQueue();
    const keys = Array.from({ length: 10 }, (_, index) => `route-${index}`);
    for (const key of keys) {
      queue.add(key, loads.load(key));
    }
    expect(loads.started).toEqual(keys.slice(0, 4));
    expect(queue.running).toBe(4);
    expect(queue.size).toBe(6);

    for (const key of keys) {
      await loads.finish(key);
      expect(queue.running).toBeLessThanOrEqual(4);
    }
    expect(loads.started).toEqual(keys);
    expect(loads.peak()).toBe(4);
    expect(queue.running).toBe(0);
  });

  it('loads each key once, lets urgent loads jump the line, and retries a key whose load failed', async () => {
    const loads = deferredLoads();
    const queue = createPreloadQueue<unknown>(1);
    const sectionA = {};
    queue.add(sectionA, loads.load('a'));
    queue.add(sectionA, loads.load('a-again'));
    queue.add('b', loads.load('b'));
    queue.add('hovered', loads.load('hovered'), true);
    expect(queue.size).toBe(2);

    await loads.finish('a', false);
    expect(loads.started).toEqual(['a', 'hovered']);
    queue.add(sectionA, loads.load('a-retry'));
    await loads.finish('hovered');
    await loads.finish('b');
    await loads.finish('a-retry');
    expect(loads.started).toEqual(['a', 'hovered', 'b', 'a-retry']);
    expect(loads.peak()).toBe(1);
  });
});
