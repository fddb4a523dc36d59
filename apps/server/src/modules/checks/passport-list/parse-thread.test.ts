import { describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
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

async function parseInThread(text: string, chunkBytes: number) {
  const thread = await PassportListParseThread.open(10);
  try {
    const bytes = Buffer.from(text);
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += chunkBytes) {
      out.push(await thread.push(bytes.subarray(i, i + chunkBytes)));
    }
    out.push(await thread.end());
    return { text: Buffer.concat(out).toString(), counts: thread.counts };
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
      expect(parsed.text).toBe(expected);
      expect(parsed.counts).toEqual(direct.counts);
    }
    expect(direct.counts).toMatchObject({ rows: 8, accepted: 4, rejected: 4 });
    expect(direct.counts.errors.map((error) => error.row)).toEqual([4, 5, 6, 7]);
  });

  it('refuses a file with another header with the Russian reason, as the parser does', async () => {
    const thread = await PassportListParseThread.open(10);
    try {
      await expect(thread.push(Buffer.from('SERIES;NUMBER\n0304;012345\n'))).rejects.toBeInstanceOf(
        PassportListError,
      );
    } finally {
      await thread.close();
    }
  });

  it('runs as background work (SCHED_IDLE), the rest of the process at its own priority', async () => {
    const thread = await PassportListParseThread.open(10);
    try {
      expect(thread.thread.priority).toBe('idle');
      expect(threadPolicy(thread.thread.id!)).toBe(SCHED_IDLE);
      expect(threadPolicy(process.pid)).toBe(0);
    } finally {
      await thread.close();
    }
    // JOBS_DB_NICE=0: the operator keeps background work at the app's priority.
    const unchanged = await PassportListParseThread.open(0);
    try {
      expect(unchanged.thread.priority).toBe('none');
      expect(threadPolicy(unchanged.thread.id!)).toBe(0);
    } finally {
      await unchanged.close();
    }
  });
});
