import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { backgroundCommand, SCHED_IDLE, threadPolicy } from './thread-priority.ts';

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

  it('leaves a command as it is when background priority is off (nice 0)', () => {
    expect(backgroundCommand('bunzip2', ['-c'], 0)).toEqual({
      command: 'bunzip2',
      args: ['-c'],
      idle: false,
    });
  });
});
