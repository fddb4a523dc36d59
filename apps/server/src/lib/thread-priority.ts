import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';

/**
 * Background CPU work inside the app's machine (a list's decompression and parse) runs under Linux's
 * SCHED_IDLE policy: it gets the cycles the API leaves idle, and a request's process that wakes up
 * takes the core from it at once. A lower nice alone is not enough on the kernel's EEVDF scheduler:
 * the background task keeps the core to the end of its time slice, a few ms per wake-up, and a
 * lookup's hops between Node and PostgreSQL pay that each (the passports benchmark: lookup p99 while
 * loading 9–22 ms at nice 10, 5–6 ms under SCHED_IDLE; docs/performance.md).
 * Only for work that holds no lock other work waits for: a database backend keeps its nice
 * (db/backend-priority.ts), since one starved under SCHED_IDLE would hold its locks meanwhile.
 * `chrt` (util-linux, in Debian's base system) sets the policy; where it is missing or refused, the
 * work gets the nice value instead. `nice` 0 (JOBS_DB_NICE=0) leaves the work at the app's priority.
 */

/** SCHED_IDLE in /proc/<pid>/stat's `policy` field. */
export const SCHED_IDLE = 5;

let chrtFound: boolean | undefined;
/** Whether `chrt` can be run here; asked once. */
export function hasChrt(): boolean {
  chrtFound ??= spawnSync('chrt', ['--help'], { stdio: 'ignore' }).status === 0;
  return chrtFound;
}

/** A command line that runs `command` as background work: under `chrt --idle` where it can. */
export function backgroundCommand(
  command: string,
  args: string[],
  nice: number,
): { command: string; args: string[]; idle: boolean } {
  if (nice > 0 && hasChrt()) {
    return { command: 'chrt', args: ['--idle', '0', command, ...args], idle: true };
  }
  return { command, args, idle: false };
}

/**
 * Starts `command` as a background child process, its stdin and stdout piped: SCHED_IDLE where it
 * can (backgroundCommand), else at `nice`; and in a session of its own whose scheduling group has the
 * lowest weight. Where the kernel groups tasks by session (autogroups,
 * `/proc/sys/kernel/sched_autogroup_enabled`, on in Debian's kernels), SCHED_IDLE and nice rank a
 * task only inside its session's group, and the groups share the cores as equals: a decoder in the
 * app's session kept the embedded PostgreSQL's backends (a session of their own) waiting for a core
 * 0.73 ms on average after each wake-up, 0.27 ms with autogroups off (`perf sched latency`,
 * docs/performance.md). Its own group at nice 19 (`/proc/<pid>/autogroup`) gives way to both. The
 * child still ends with the app: its pipes close.
 */
export function spawnBackground(
  command: string,
  args: string[],
  nice: number,
): ChildProcessByStdio<Writable, Readable, null> {
  const background = backgroundCommand(command, args, nice);
  const child = spawn(background.command, background.args, {
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: nice > 0,
  });
  if (nice > 0 && child.pid !== undefined) {
    lowerSessionGroupPriority(child.pid);
    if (!background.idle) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Not allowed to lower it (a sandbox): it runs at the app's priority.
      }
    }
  }
  return child;
}

/** The lowest weight (nice 19) for the scheduling group of `pid`'s session, where the kernel has such groups. */
function lowerSessionGroupPriority(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // No autogroups in this kernel (no such file): SCHED_IDLE or nice alone.
  }
}

/**
 * Makes the calling thread background work (SCHED_IDLE, else `nice`), the rest of the process
 * unchanged: Linux keeps the policy and nice value per thread, and `/proc/thread-self` names the
 * caller's id. For a worker thread; returns what it could set.
 */
export function lowerThisThreadPriority(nice: number): 'idle' | 'nice' | 'none' {
  const threadId = thisThreadId();
  if (nice <= 0 || threadId === undefined) {
    return 'none';
  }
  if (
    hasChrt() &&
    spawnSync('chrt', ['--idle', '--pid', '0', String(threadId)], { stdio: 'ignore' }).status === 0
  ) {
    return 'idle';
  }
  try {
    setPriority(threadId, nice);
    return 'nice';
  } catch {
    return 'none';
  }
}

/** The kernel's id of the calling thread (Linux). */
export function thisThreadId(): number | undefined {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(threadId) && threadId > 0 ? threadId : undefined;
  } catch {
    return undefined;
  }
}

/** The scheduling policy of a thread (0 normal, SCHED_IDLE 5), of this process unless `pid` names another; a process's own: `threadPolicy(pid, pid)`. For tests. */
export function threadPolicy(threadId: number, pid = process.pid): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): `policy` is field 41, i.e. index 38.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
  } catch {
    return undefined;
  }
}
