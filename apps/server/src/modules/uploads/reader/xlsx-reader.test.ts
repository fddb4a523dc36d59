import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_COLUMNS } from './row-source.ts';
import { openXlsx } from './xlsx-reader.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-xlsx-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function workbookFile(rows: string[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Лист');
  for (const row of rows) {
    sheet.addRow(row);
  }
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.xlsx`);
  await writeFile(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}

async function readAll(file: string, limits = {}) {
  const source = await openXlsx(file, { maxUnzippedBytes: 64 * 1024 * 1024, ...limits });
  try {
    const rows = [];
    for await (const row of source.rows()) {
      rows.push(row);
    }
    return rows;
  } finally {
    await source.close();
  }
}

describe('openXlsx limits', () => {
  it('refuses more shared strings than the limit, with a Russian reason', async () => {
    const file = await workbookFile([
      ['VIN', 'Метка'],
      ...Array.from({ length: 20 }, (_, i) => [`v${i}`, `m${i}`]),
    ]);
    await expect(readAll(file, { maxSharedStrings: 10 })).rejects.toThrow(
      'В файле XLSX слишком много разных строк',
    );
    expect(await readAll(file, { maxSharedStrings: 100 })).toHaveLength(21);
  });

  it('reads at most MAX_COLUMNS cells a row and counts the filled ones beyond', async () => {
    const wide = Array.from({ length: MAX_COLUMNS + 10 }, (_, i) => `c${i}`);
    const [row] = await readAll(await workbookFile([wide]));
    expect(row!.values).toHaveLength(MAX_COLUMNS);
    expect(row!.extraCells).toBe(10);
  });
});
