import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { backgroundCommand, SCHED_IDLE, spawnBackground, threadPolicy } from './thread-priority.ts';

/** The session of a process (field 6 of /proc/<pid>/stat). */
const sessionOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
};
/** Kernels that group tasks by session have /proc/<pid>/autogroup. */
const hasAutogroups = existsSync(`/proc/${process.pid}/autogroup`);

describe('background work priority', () => {
  it('starts a command under SCHED_IDLE (the child itself, not a wrapper left running)', async () => {
    const { command, args, idle } = backgroundCommand('sleep', ['5'], 10);
    expect(idle).toBe(true);
    const child = spawn(command, args, { stdio: 'ignore' });
    try {
      // chrt execs the command: the same pid, named sleep once the exec happened.
      await expect
        .poll(() => readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim(), { timeout: 5000 })
        .toBe('sleep');
      expect(threadPolicy(child.pid!, child.pid!)).toBe(SCHED_IDLE);
      expect(threadPolicy(process.pid)).toBe(0);
      expect(getPriority()).toBe(0);
    } finally {
      child.kill();
    }
  });

  it.runIf(hasAutogroups)(
    "starts a background child in a session of its own whose scheduling group has the lowest weight, not in the app's group",
    async () => {
      const child = spawnBackground('sleep', ['5'], 10);
      try {
        await expect
          .poll(() => readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim(), { timeout: 5000 })
          .toBe('sleep');
        expect(threadPolicy(child.pid!, child.pid!)).toBe(SCHED_IDLE);
        expect(sessionOf(child.pid!)).toBe(child.pid);
        expect(sessionOf(child.pid!)).not.toBe(sessionOf(process.pid));
        expect(readFileSync(`/proc/${child.pid}/autogroup`, 'utf8')).toMatch(/ nice 19\n?$/);
        // The app's own group keeps its weight.
        expect(readFileSync(`/proc/${process.pid}/autogroup`, 'utf8')).not.toMatch(/ nice 19\n?$/);
      } finally {
        child.kill();
      }
    },
  );

  it("starts a child at the app's priority and in its session when background priority is off (nice 0)", () => {
    const child = spawnBackground('sleep', ['5'], 0);
    try {
      expect(sessionOf(child.pid!)).toBe(sessionOf(process.pid));
    } finally {
      child.kill();
    }
  });

  it('leaves a command as it is when background priority is off (nice 0)', () => {
    expect(backgroundCommand('bunzip2', ['-c'], 0)).toEqual({
      command: 'bunzip2',
      args: ['-c'],
      idle: false,
    });
  });
});
