import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { type Bzip2Decoder, openListText, systemBzip2Decoders } from './decompress.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-decompress-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The PIDs of this process's children running `command`. */
async function childrenRunning(command: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match?.[1] === command && Number(match[2]) === process.pid) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Kernels that group tasks by session for scheduling have /proc/<pid>/autogroup ("/autogroup-N nice K"). */
const groupNice = async (pid: number) => {
  const line = await readFile(`/proc/${pid}/autogroup`, 'utf8').catch(() => undefined);
  return line === undefined ? undefined : Number(/nice (-?\d+)/.exec(line)?.[1]);
};

/**
 * The decoder that decompresses a list read with `nice`, seen while it runs: its policy, whether it
 * leads a session of its own (field 6 of /proc/<pid>/stat), and its session group's nice.
 */
async function decoderPolicy(
  decoder: Bzip2Decoder,
  file: string,
  nice: number | undefined,
): Promise<{ policy: number; ownSession: boolean; groupNice: number | undefined }[]> {
  const seen: { policy: number; ownSession: boolean; groupNice: number | undefined }[] = [];
  for await (const _chunk of openListText({ path: file, maxBytes: 1024 ** 3, nice, decoder })) {
    if (seen.length === 0) {
      for (const pid of await childrenRunning(decoder)) {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
        seen.push({
          policy: threadPolicy(pid, pid)!,
          ownSession: session === pid,
          groupNice: await groupNice(pid),
        });
      }
    }
  }
  return seen;
}

describe.skipIf(systemBzip2Decoders().length === 0)('the list decompressed by a system decoder', () => {
  it('prefers lbzip2 (every core) to bunzip2 (one) when both are installed', () => {
    const found = systemBzip2Decoders();
    expect(found).toEqual(['lbzip2', 'bunzip2'].filter((decoder) => found.includes(decoder as Bzip2Decoder)));
  });

  it.each(systemBzip2Decoders())(
    '%s runs as background work (SCHED_IDLE) for a job (JOBS_DB_NICE > 0), at the process’s own priority without one',
    async (decoder) => {
      const rows = Array.from(
        { length: 300_000 },
        (_, i) => `${String(i % 10_000).padStart(4, '0')},${String(i).padStart(6, '0')}`,
      );
      const file = path.join(dir, `list-${decoder}.csv.bz2`);
      await writeFile(
        file,
        execFileSync('bzip2', ['-c'], {
          input: `PASSP_SERIES,PASSP_NUMBER\n${rows.join('\n')}\n`,
          maxBuffer: 64 * 1024 * 1024,
        }),
      );
      // A regular import gives way to checks and the API at once: the decompression takes a whole core,
      // and at a lower nice alone it kept it to the end of its slice (lib/thread-priority.ts).
      // In a session of its own whose scheduling group has the lowest weight: else, with autogroups, it
      // would share the cores as the app's group, as an equal of PostgreSQL's backends.
      const appGroupNice = await groupNice(process.pid);
      expect(await decoderPolicy(decoder, file, 7)).toEqual([
        { policy: SCHED_IDLE, ownSession: true, groupNice: appGroupNice === undefined ? undefined : 19 },
      ]);
      // The head read in a request keeps the process's priority and group.
      expect(await decoderPolicy(decoder, file, undefined)).toEqual([
        { policy: 0, ownSession: false, groupNice: appGroupNice },
      ]);
      // The same text from every decoder.
      const text = async (choice: Bzip2Decoder | 'javascript') => {
        const chunks: Buffer[] = [];
        for await (const chunk of openListText({ path: file, maxBytes: 1024 ** 3, decoder: choice })) {
          chunks.push(chunk);
        }
        return Buffer.concat(chunks).toString();
      };
      expect(await text(decoder)).toBe(await text('javascript'));
    },
  );
});
