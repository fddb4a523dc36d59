import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { decodeCopyRows } from '../testing/copy-rows.ts';
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
const spillPath = path.join(dir, 'list.csv');

/** The list through the thread in chunks; its rows read back as 10-digit keys. */
async function parseInThread(text: string, chunkBytes: number) {
  const thread = await PassportListParseThread.open(10, spillPath, { capacity: 2 });
  try {
    const bytes = Buffer.from(text);
    // Every chunk in flight at once, as the import keeps several: answered in the order sent.
    const pushed: Promise<void>[] = [];
    for (let i = 0; i < bytes.length; i += chunkBytes) {
      pushed.push(thread.push(bytes.subarray(i, i + chunkBytes)));
    }
    await Promise.all(pushed);
    await thread.end();
    const pieces: Buffer[] = [];
    for (let piece = await thread.nextRows(); piece; piece = await thread.nextRows()) {
      pieces.push(piece);
    }
    const keys = decodeCopyRows(Buffer.concat(pieces)).flatMap(([block, numbers]) =>
      numbers.map((n) => String(block * 10000 + n).padStart(10, '0')),
    );
    return { keys, counts: thread.counts, distinct: thread.distinct };
  } finally {
    await thread.close();
  }
}

describe('the passport list parsed in a thread of its own', () => {
  it('gives what the parser gives, whatever the chunks: leading zeros kept, malformed rows counted', async () => {
    const direct = new PassportListParser();
    const expected = Buffer.concat([direct.push(Buffer.from(LIST)), direct.end()]).toString();
    expect(expected).toBe('0304012345\n6001000001\n4510654321\n0000000000\n');
    for (const chunkBytes of [1, 3, 7, 64, 4096]) {
      const parsed = await parseInThread(LIST, chunkBytes);
      // The parser's passports, grouped by the thread into the version table's rows (in key order).
      expect(parsed.keys).toEqual(['0000000000', '0304012345', '4510654321', '6001000001']);
      expect(parsed.distinct).toBe(4);
      expect(parsed.counts).toEqual(direct.counts);
    }
    expect(direct.counts).toMatchObject({ rows: 8, accepted: 4, rejected: 4 });
    expect(direct.counts.errors.map((error) => error.row)).toEqual([4, 5, 6, 7]);
  });

  it('refuses a file with another header with the Russian reason, as the parser does', async () => {
    const thread = await PassportListParseThread.open(10, spillPath);
    try {
      await expect(thread.push(Buffer.from('SERIES;NUMBER\n0304;012345\n'))).rejects.toBeInstanceOf(
        PassportListError,
      );
    } finally {
      await thread.close();
    }
  });

  it('runs as background work (SCHED_IDLE), the rest of the process at its own priority', async () => {
    const thread = await PassportListParseThread.open(10, spillPath);
    try {
      expect(thread.thread.priority).toBe('idle');
      expect(threadPolicy(thread.thread.id!)).toBe(SCHED_IDLE);
      expect(threadPolicy(process.pid)).toBe(0);
    } finally {
      await thread.close();
    }
    // JOBS_DB_NICE=0: the operator keeps background work at the app's priority.
    const unchanged = await PassportListParseThread.open(0, spillPath);
    try {
      expect(unchanged.thread.priority).toBe('none');
      expect(threadPolicy(unchanged.thread.id!)).toBe(0);
    } finally {
      await unchanged.close();
    }
  });
});
