import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { JobContext } from '../../jobs/job-definition.ts';
import { buildTestApp, createSignedInUser } from '../../testing/test-app.ts';
import type { FileColumn } from './header/find-header.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';
import { itemsRowRules } from './kinds/items-row-rules.ts';
import { itemsUpload } from './kinds/items-upload.ts';
import type { FileRow } from './reader/row-source.ts';
import { receiveItemsCsv } from './testing/receive-csv.ts';
import { RAW_VALUE_CHARS, RowChecker, SKIPPED_ROWS_SHOWN } from './upload-row-checks.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-row-checks-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({
  config: { dataDir, uploadMaxBytes: 4 * 1024 * 1024, uploadMaxUnzippedBytes: 16 * 1024 * 1024 },
});
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

let serial = 310000;
function makeVin(): string {
  const body = `XTA21074${'0'}Y${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

const column = (index: number, header: string, field: string): FileColumn => ({
  index,
  header,
  field,
  samples: [],
  match: 'title',
  ambiguous: false,
});
const COLUMNS = [column(0, 'VIN', 'vin'), column(1, 'Метка', 'label')];
const row = (rowNumber: number, ...values: string[]): FileRow => ({ rowNumber, values });

describe('the rows of an upload checked in the reader thread (issue #31)', () => {
  it('the API thread runs none of the kind’s row rules, and the staged and refused rows are what the rules say', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 2500 }, () => makeVin());
    const badVin = 'XTA21074OY1234567';
    const csv = [
      'VIN;Метка',
      ...vins.map((vin, i) => `${vin};Лада №${i}`),
      `${badVin};С буквой O`,
      'Итого: 2501',
    ].join('\n');
    // The main thread's handler: before the checks moved to the reader thread, every row came here.
    const mainThreadChecks = vi.spyOn(itemsUpload, 'validateRow');
    try {
      const upload = await receiveItemsCsv(app, config, user, csv);
      await validateUploadJob.handler(
        { id: 'test', data: { uploadId: upload.id }, retryCount: 0, retryLimit: 3 },
        context,
      );
      expect(mainThreadChecks).not.toHaveBeenCalled();

      const { rows: uploads } = await app.db.query(
        `SELECT status, rows_total, rows_rejected, details->'skippedRows' AS skipped
           FROM uploads WHERE id = $1`,
        [upload.id],
      );
      // Auto-confirmed: validated, then waiting for its import job.
      expect(uploads[0]).toMatchObject({ status: 'importing', rows_total: 2501, rows_rejected: 1 });
      expect(uploads[0].skipped).toEqual([{ rowNumber: 2503, text: 'Итого: 2501' }]);
      const { rows: staged } = await app.db.query<{ identifier: string; label: string; row_number: number }>(
        'SELECT identifier, label, row_number FROM upload_item_rows WHERE upload_id = $1 ORDER BY row_number',
        [upload.id],
      );
      expect(staged.map((r) => r.identifier)).toEqual(vins);
      expect(staged[41]).toMatchObject({ label: 'Лада №41', row_number: 43 });
      const { rows: errors } = await app.db.query(
        'SELECT row_number, field, message, raw FROM upload_errors WHERE upload_id = $1',
        [upload.id],
      );
      mainThreadChecks.mockRestore();
      const expected = itemsUpload.validateRow({ vin: badVin, label: 'С буквой O' });
      expect(expected.ok).toBe(false);
      expect(errors).toEqual([
        {
          row_number: 2502,
          field: 'vin',
          message: expected.ok ? '' : expected.problems.map((p) => p.message).join('; '),
          raw: [badVin, '', '', 'С буквой O', '', ''],
        },
      ]);
    } finally {
      mainThreadChecks.mockRestore();
    }
  });

  it('a batch’s lines: a backslash escaped for COPY, raw values clipped, blank rows passed over, skipped rows listed up to the cap over all batches', () => {
    const checker = new RowChecker(itemsRowRules, COLUMNS, 'u-1');
    const vin = makeVin();
    const first = checker.check([
      row(2, vin, 'Папка C:\\Лизинг'),
      row(3, '', ''),
      row(4, 'не VIN', 'x'.repeat(RAW_VALUE_CHARS + 50)),
      ...Array.from({ length: 6 }, (_, i) => row(5 + i, '', `Итого ${i}`)),
    ]);
    expect(first).toMatchObject({ total: 2, staged: 1, rejected: 1, skipped: 6 });
    expect(first.staging).toBe(`u-1\t2\tvin\t\\N\t${vin}\tПапка C:\\\\Лизинг\t\\N\t\\N\t\\N\n`);
    const errorFields = first.errors.trimEnd().split('\t');
    expect(errorFields.slice(0, 3)).toEqual(['u-1', '4', 'vin']);
    expect(errorFields[4]).toBe(`{"не VIN","","","${'x'.repeat(RAW_VALUE_CHARS)}…","",""}`);
    const second = checker.check(Array.from({ length: 6 }, (_, i) => row(20 + i, '', `Итого ${i}`)));
    expect(second).toMatchObject({ total: 0, skipped: 6, staging: '', errors: '' });
    expect(first.skippedRows.length + second.skippedRows.length).toBe(SKIPPED_ROWS_SHOWN);
    expect(second.skippedRows.map((r) => r.rowNumber)).toEqual([20, 21, 22, 23]);
  });
});
