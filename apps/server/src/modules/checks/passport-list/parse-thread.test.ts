import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { decodeCopyRows } from '../testing/copy-rows.ts';
import { type Bzip2Decoder, systemBzip2Decoders } from './decompress.ts';
import { PassportListParseThread } from './parse-thread.ts';
import { PassportListError, PassportListParser } from './passport-list-format.ts';

const LIST = [
  'PASSP_SERIES,PASSP_NUMBER',
  '0304,012345',
  '6001,000001',
  '60O1,123456', // a letter O
  '1234;567890', // another delimiter
  '',
  '12,34',
  '4510,654321\r',
  '0000,000000',
].join('\n');

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-parse-thread-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The list's file through the thread; its rows read back as 10-digit keys. */
async function loadInThread(file: string, decoder?: Bzip2Decoder | 'javascript') {
  // Spill files of its own: the test loads several files at once (an import's are named by its file).
  const thread = await PassportListParseThread.open(10, path.join(dir, `spill-${randomUUID()}`), {
    capacity: 2,
  });
  try {
    let told = 0;
    await thread.load({ path: file, maxBytes: 1024 ** 2, nice: 10, decoder }, () => told++);
    const pieces: Buffer[] = [];
    for (let piece = await thread.nextRows(); piece; piece = await thread.nextRows()) {
      pieces.push(piece);
    }
    const keys = decodeCopyRows(Buffer.concat(pieces)).flatMap(([block, numbers]) =>
      numbers.map((n) => String(block * 10000 + n).padStart(10, '0')),
    );
    return { keys, counts: thread.counts, distinct: thread.distinct, bytesRead: thread.bytesRead, told };
  } finally {
    await thread.close();
  }
}

describe('the passport list read and parsed in a thread of its own', () => {
  it('gives what the parser gives, from text or bzip2 by any decoder: leading zeros kept, malformed rows counted', async () => {
    const direct = new PassportListParser();
    const expected = Buffer.concat([direct.push(Buffer.from(LIST)), direct.end()]).toString();
    expect(expected).toBe('0304012345\n6001000001\n4510654321\n0000000000\n');
    const csv = path.join(dir, 'list.csv');
    await writeFile(csv, LIST);
    const bz2 = path.join(dir, 'list.csv.bz2');
    await writeFile(bz2, execFileSync('bzip2', ['-c'], { input: LIST }));
    const runs = [
      await loadInThread(csv),
      ...(await Promise.all(
        [...systemBzip2Decoders(), 'javascript' as const].map((decoder) => loadInThread(bz2, decoder)),
      )),
    ];
    for (const loaded of runs) {
      // The parser's passports, grouped by the thread into the version table's rows (in key order).
      expect(loaded.keys).toEqual(['0000000000', '0304012345', '4510654321', '6001000001']);
      expect(loaded.distinct).toBe(4);
      expect(loaded.counts).toEqual(direct.counts);
    }
    expect(runs[0]!.bytesRead).toBe(Buffer.byteLength(LIST));
    expect(direct.counts).toMatchObject({ rows: 8, accepted: 4, rejected: 4 });
    expect(direct.counts.errors.map((error) => error.row)).toEqual([4, 5, 6, 7]);
  });

  it('refuses a file with another header, or a broken archive, with the Russian reason', async () => {
    const other = path.join(dir, 'other.csv');
    await writeFile(other, 'SERIES;NUMBER\n0304;012345\n');
    const broken = path.join(dir, 'broken.csv.bz2');
    await writeFile(broken, execFileSync('bzip2', ['-c'], { input: LIST }).subarray(0, 30));
    for (const file of [other, broken]) {
      const thread = await PassportListParseThread.open(10, path.join(dir, 'spill'));
      try {
        await expect(thread.load({ path: file, maxBytes: 1024 ** 2, nice: 10 })).rejects.toBeInstanceOf(
          PassportListError,
        );
      } finally {
        await thread.close();
      }
    }
  });

  it('tells its progress while it reads: compressed bytes and rows', async () => {
    const rows = Array.from(
      { length: 400_000 },
      (_, i) => `${String(i % 9999).padStart(4, '0')},${String(i).padStart(6, '0')}`,
    );
    const file = path.join(dir, 'long.csv');
    await writeFile(file, `PASSP_SERIES,PASSP_NUMBER\n${rows.join('\n')}\n`);
    const thread = await PassportListParseThread.open(0, path.join(dir, 'spill'));
    try {
      const seen: number[] = [];
      // A progress at most every 250 ms, none going back; the final counts come with the end.
      await thread.load({ path: file, maxBytes: 1024 ** 3, nice: 0 }, () => seen.push(thread.counts.rows));
      expect(thread.counts.rows).toBe(400_000);
      expect(thread.bytesRead).toBe((await stat(file)).size);
      expect(seen.every((rows, i) => rows > 0 && rows <= 400_000 && (i === 0 || rows >= seen[i - 1]!))).toBe(
        true,
      );
    } finally {
      await thread.close();
    }
  });

  it('runs as background work (SCHED_IDLE), the rest of the process at its own priority', async () => {
    const thread = await PassportListParseThread.open(10, path.join(dir, 'spill'));
    try {
      expect(thread.thread.priority).toBe('idle');
      expect(threadPolicy(thread.thread.id!)).toBe(SCHED_IDLE);
      expect(threadPolicy(process.pid)).toBe(0);
    } finally {
      await thread.close();
    }
    // JOBS_DB_NICE=0: the operator keeps background work at the app's priority.
    const unchanged = await PassportListParseThread.open(0, path.join(dir, 'spill'));
    try {
      expect(unchanged.thread.priority).toBe('none');
      expect(threadPolicy(unchanged.thread.id!)).toBe(0);
    } finally {
      await unchanged.close();
    }
  });
});
