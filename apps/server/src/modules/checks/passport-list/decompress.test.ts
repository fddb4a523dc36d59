import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { hasBunzip2, openListText } from './decompress.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-decompress-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The PIDs of this process's children running `bunzip2`. */
async function bunzip2Children(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match?.[1] === 'bunzip2' && Number(match[2]) === process.pid) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** The policy of the bunzip2 that decompresses a list read with `nice`, seen while it runs. */
async function bunzip2Policy(file: string, nice: number | undefined): Promise<number[]> {
  let seen: number[] = [];
  for await (const _chunk of openListText({ path: file, maxBytes: 1024 ** 3, nice })) {
    if (seen.length === 0) {
      seen = (await bunzip2Children()).map((pid) => threadPolicy(pid, pid)!);
    }
  }
  return seen;
}

describe.skipIf(!hasBunzip2())('the list decompressed by bunzip2', () => {
  it('runs as background work (SCHED_IDLE) for a job (JOBS_DB_NICE > 0), at the process’s own priority without one', async () => {
    const rows = Array.from(
      { length: 300_000 },
      (_, i) => `${String(i % 10_000).padStart(4, '0')},${String(i).padStart(6, '0')}`,
    );
    const file = path.join(dir, 'list.csv.bz2');
    await writeFile(
      file,
      execFileSync('bzip2', ['-c'], {
        input: `PASSP_SERIES,PASSP_NUMBER\n${rows.join('\n')}\n`,
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    // A regular import gives way to checks and the API at once: the decompression takes a whole core,
    // and at a lower nice alone it kept it to the end of its slice (lib/thread-priority.ts).
    expect(await bunzip2Policy(file, 7)).toEqual([SCHED_IDLE]);
    // The head read in a request keeps the process's priority.
    expect(await bunzip2Policy(file, undefined)).toEqual([0]);
  });
});
