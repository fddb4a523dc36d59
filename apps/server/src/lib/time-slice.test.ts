import { describe, expect, it } from 'vitest';
import { timeSlicer } from './time-slice.ts';

describe('time slices of long work', () => {
  it('gives the event loop a turn once a slice of work has passed, whatever the steps cost', async () => {
    let clock = 0;
    const slicer = timeSlicer(2, () => clock);
    let turns = 0;
    const turnsOf = async (stepMs: number, steps: number) => {
      turns = 0;
      for (let i = 0; i < steps; i++) {
        clock += stepMs;
        let ticked = false;
        setImmediate(() => {
          ticked = true;
        });
        await slicer.pause();
        turns += ticked ? 1 : 0;
      }
      return turns;
    };
    // Cheap steps: a turn every 2 ms of work, i.e. every 4 steps of 0.5 ms.
    expect(await turnsOf(0.5, 200)).toBe(50);
    // Costly steps (a row with a long cell): a turn after each.
    expect(await turnsOf(5, 10)).toBe(10);
  });
});
