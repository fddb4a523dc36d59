import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { openRowSource, READER_BATCH_ROWS, READER_MEMORY_MESSAGE } from './open-row-source.ts';
import { openRowSourceHere } from './open-row-source-here.ts';
import type { FileRow, RowSource } from './row-source.ts';
import { UploadFileError } from './upload-file-error.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-reader-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const LIMITS = { maxUnzippedBytes: 512 * 1024 * 1024 };

async function readAll(source: RowSource): Promise<{ rows: FileRow[]; progress: number[] }> {
  const rows: FileRow[] = [];
  const progress: number[] = [];
  try {
    for await (const row of source.rows()) {
      rows.push(row);
      progress.push(source.bytesRead());
    }
    return { rows, progress };
  } finally {
    await source.close();
  }
}

/** How many of this process's threads run under SCHED_IDLE. */
async function idleThreads(): Promise<number> {
  let idle = 0;
  for (const task of await readdir('/proc/self/task')) {
    if (threadPolicy(Number(task)) === SCHED_IDLE) {
      idle++;
    }
  }
  return idle;
}

describe('openRowSource (the reader in a worker thread)', () => {
  it('reads a job’s file as background work (SCHED_IDLE) and a waiting user’s at the app’s priority', async () => {
    const file = path.join(dir, 'priority.csv');
    await writeFile(file, 'VIN;Метка\nV1;a\n');
    const before = await idleThreads();
    const forJob = await openRowSource(file, { ...LIMITS, backgroundNice: 10 });
    expect(await idleThreads()).toBe(before + 1);
    await forJob.close();
    const forUser = await openRowSource(file, LIMITS);
    expect(await idleThreads()).toBe(before);
    await forUser.close();
  });

  it('gives the same rows, format and progress as the reader in this thread, in batches', async () => {
    const count = READER_BATCH_ROWS * 5 + 17;
    const file = path.join(dir, 'rows.csv');
    const lines = [
      'VIN;Метка',
      ...Array.from({ length: count }, (_, i) => `V${i};"${'метка '.repeat(10)}${i}"`),
    ];
    await writeFile(file, `${lines.join('\r\n')}\r\n`);
    const isolated = await openRowSource(file, LIMITS);
    expect(isolated).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ';' });
    const { rows, progress } = await readAll(isolated);
    const here = await readAll(await openRowSourceHere(file, LIMITS));
    expect(rows).toEqual(here.rows);
    expect(rows).toHaveLength(count + 1);
    expect(progress.at(-1)).toBe(isolated.totalBytes);
    expect(progress[0]).toBeLessThan(isolated.totalBytes);
  });

  it('reads an XLSX (long cells marked) the same way', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Лист');
    sheet.addRow(['VIN', 'Метка']);
    sheet.addRow(['A', 'Ж'.repeat(1500)]);
    const file = path.join(dir, 'book.xlsx');
    await writeFile(file, Buffer.from(await workbook.xlsx.writeBuffer()));
    const { rows } = await readAll(await openRowSource(file, LIMITS));
    expect(rows).toEqual((await readAll(await openRowSourceHere(file, LIMITS))).rows);
    expect(rows[1]!.longCells).toEqual(new Map([[1, 1001]]));
  });

  it('a file that exhausts the reader thread heap fails with a Russian reason; this process goes on', async () => {
    // A weakness no cap knows of, stood in for by a heap smaller than the file's shared strings.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Лист');
    sheet.addRow(['VIN', 'Метка']);
    for (let i = 0; i < 40_000; i++) {
      sheet.addRow([`VIN${i}`, `${'метка '.repeat(30)}${i}`]);
    }
    const file = path.join(dir, 'heavy.xlsx');
    await writeFile(file, Buffer.from(await workbook.xlsx.writeBuffer()));
    const heapBefore = process.memoryUsage().heapUsed;
    const error = await openRowSource(file, { ...LIMITS, readerHeapMb: 16 })
      .then(readAll)
      .then(
        () => null,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(UploadFileError);
    expect((error as Error).message).toBe(READER_MEMORY_MESSAGE);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    // The same file within the default heap reads whole.
    expect((await readAll(await openRowSource(file, LIMITS))).rows).toHaveLength(40_001);
  }, 60_000);

  it('an unreadable file is refused with the reader reason, as before', async () => {
    const file = path.join(dir, 'junk.csv');
    await writeFile(file, Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7]));
    await expect(openRowSource(file, LIMITS)).rejects.toThrow(UploadFileError);
  });
});
