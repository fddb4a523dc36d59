import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHED_IDLE, threadPolicy } from '../../../lib/thread-priority.ts';
import { readHeader } from '../header/read-header.ts';
import { itemsUpload } from '../kinds/items-upload.ts';
import { type CheckedRows, RowChecker } from '../upload-row-checks.ts';
import {
  openCheckedRows,
  openRowSource,
  READER_BATCH_ROWS,
  READER_MEMORY_MESSAGE,
} from './open-row-source.ts';
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

/** A VIN with its check digit right, told apart by `n`. */
const validVin = (n: number) => {
  const body = `XTA210740Y${String(1_000_000 + n)}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
};

describe('openCheckedRows (an upload’s validation in the reader thread)', () => {
  const CHECK_LIMITS = { ...LIMITS, backgroundNice: 10, rules: itemsUpload.rowRulesModule };

  it('finds the header there and hands back the rows checked there, as the same checks here give them', async () => {
    const file = path.join(dir, 'checked.csv');
    const lines = [
      'Портфель на 01.11.2026',
      'VIN;Метка;Номер договора',
      ...Array.from({ length: READER_BATCH_ROWS * 2 + 5 }, (_, i) =>
        i % 7 === 3 ? `XTA21074;короткий ${i};КД-${i}` : `${validVin(i)};Лада ${i};КД-${i}`,
      ),
      'Итого;2005;',
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    const source = await openCheckedRows(file, CHECK_LIMITS);
    const batches: CheckedRows[] = [];
    try {
      expect(source.header).toMatchObject({ rowNumber: 2, recognised: true });
      for await (const batch of source.checkedRows({
        uploadId: 'u-1',
        columns: source.header.proposal.columns,
      })) {
        batches.push(batch);
      }
    } finally {
      await source.close();
    }
    const here = await openRowSourceHere(file, LIMITS);
    const read = await readHeader(itemsUpload, here.rows());
    const rows: FileRow[] = [];
    for await (const row of read.rest) {
      rows.push(row);
    }
    const expected = new RowChecker(itemsUpload, read.proposal.columns, 'u-1').check(rows);
    expect(source.header.proposal).toEqual(read.proposal);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.map((b) => b.staging).join('')).toBe(expected.staging);
    expect(batches.map((b) => b.errors).join('')).toBe(expected.errors);
    expect(batches.reduce((sum, b) => sum + b.rejected, 0)).toBe(expected.rejected);
    expect(expected).toMatchObject({ total: READER_BATCH_ROWS * 2 + 5, skipped: 1 });
    expect(expected.rejected).toBeGreaterThan(200);
    expect(expected.staged).toBeGreaterThan(1500);
  });

  it('a file without the kind’s header is refused with the kind’s reason, the thread gone', async () => {
    const file = path.join(dir, 'no-header.csv');
    await writeFile(file, 'Имя;Город\nИван;Москва\n');
    const before = await idleThreads();
    const error = await openCheckedRows(file, CHECK_LIMITS).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(UploadFileError);
    expect((error as Error).message).toBe(itemsUpload.missingHeaderMessage);
    expect(await idleThreads()).toBe(before);
  });
});
