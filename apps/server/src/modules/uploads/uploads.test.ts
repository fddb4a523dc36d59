import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { importUploadJob } from './jobs/import-upload.job.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';
import { IMPORT_FAILED_MESSAGE, STAGING_LOST_MESSAGE } from './upload-pipeline.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-uploads-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const MAX_BYTES = 1024 * 1024;
const { app, config } = await buildTestApp({
  config: { dataDir, uploadMaxBytes: MAX_BYTES, uploadMaxUnzippedBytes: 16 * 1024 * 1024 },
});
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

let serial = 500000;
function makeVin(wmi = 'XTA'): string {
  const body = `${wmi}210740P${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

function multipart(fileName: string, content: Buffer | string) {
  const boundary = `----pledgewatch${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(user: TestUser, fileName: string, content: Buffer | string, query = '') {
  const body = multipart(fileName, content);
  return app.inject({
    method: 'POST',
    url: `/api/v1/monitoring/uploads${query}`,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
}

const run = (job: typeof validateUploadJob | typeof importUploadJob, uploadId: string, last = false) =>
  job.handler({ id: 'test', data: { uploadId }, retryCount: last ? 3 : 0, retryLimit: 3 }, context);
const get = (url: string, user: TestUser) => app.inject({ method: 'GET', url, headers: bearer(user.token) });
const post = (url: string, user: TestUser) =>
  app.inject({ method: 'POST', url, headers: bearer(user.token) });
const detail = async (id: string, user: TestUser) =>
  (await get(`/api/v1/monitoring/uploads/${id}`, user)).json();

/** Uploads, validates and (unless told not to) confirms and imports; returns the final detail. */
async function uploadAndProcess(user: TestUser, fileName: string, content: Buffer | string, confirm = true) {
  const response = await upload(user, fileName, content);
  expect(response.statusCode, response.body).toBe(202);
  const id = response.json().id as string;
  await run(validateUploadJob, id);
  if (confirm) {
    expect((await post(`/api/v1/monitoring/uploads/${id}/confirm`, user)).statusCode).toBe(200);
    await run(importUploadJob, id);
  }
  return detail(id, user);
}

/** Windows-1251 bytes of a text (Cyrillic, ASCII and the few signs the tests use). */
function cp1251(text: string): Buffer {
  const special: Record<string, number> = { Ё: 0xa8, ё: 0xb8, '«': 0xab, '»': 0xbb, '№': 0xb9 };
  return Buffer.from(
    [...text].map((char) => {
      const code = char.charCodeAt(0);
      if (code < 128) {
        return code;
      }
      if (code >= 0x410 && code <= 0x44f) {
        return code - 0x350;
      }
      const mapped = special[char];
      if (mapped === undefined) {
        throw new Error(`no cp1251 for ${char}`);
      }
      return mapped;
    }),
  );
}

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Портфель');
  for (const row of rows) {
    sheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A minimal zip with the given entries (deflated), enough for an XLSX the reader will open. */
function zip(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const compressed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, compressed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('POST /api/v1/monitoring/uploads: file formats', () => {
  it('reads a Windows-1251 CSV with `;`, rejects the bad row, reports repeats and existing items, restores archived', async () => {
    const user = await createSignedInUser(app);
    const [existing, archived, fresh, repeated] = [makeVin(), makeVin('Z94'), makeVin('XW8'), makeVin('KNA')];
    await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/regular-check/form-vin',
      headers: bearer(user.token),
      payload: { rows: [{ vin: existing }, { vin: archived }] },
    });
    await app.db.query(`UPDATE monitoring_items SET status = 'archived' WHERE identifier = $1`, [archived]);
    const csv = [
      'ВИН;Метка;№ договора;Залогодатель;Цвет',
      `${fresh};Фольксваген Поло;КД-1;Ёжиков Пётр;белый`,
      `${existing};Лада;КД-2;Иванов;`,
      `${archived};"Хендэ; Солярис";КД-3;Сидоров;`,
      'XTA2107;Плохой;КД-4;Никто;',
      '',
      `${repeated};Киа;КД-5;;`,
      `${repeated.toLowerCase()};Киа снова;КД-6;;`,
    ].join('\r\n');
    const response = await upload(user, 'portfolio.csv', cp1251(csv));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      status: 'received',
      format: 'csv',
      encoding: 'windows-1251',
      delimiter: ';',
    });
    const id = response.json().id;
    await run(validateUploadJob, id);

    const validated = await detail(id, user);
    expect(validated).toMatchObject({
      status: 'validated',
      counts: { rows: 6, accepted: 2, restored: 1, duplicates: 2, rejected: 1 },
      progress: { rowsProcessed: 6, percent: 100 },
      ignoredColumns: ['Цвет'],
    });
    expect(validated.columns).toContainEqual({ field: 'vin', title: 'VIN', header: 'ВИН' });
    expect(validated.columns).toContainEqual({
      field: 'contractNumber',
      title: 'Номер договора',
      header: '№ договора',
    });
    expect(validated.preview[0]).toMatchObject({
      rowNumber: 2,
      identifier: fresh,
      label: 'Фольксваген Поло',
      pledgorName: 'Ёжиков Пётр',
    });
    expect(validated.preview[2]).toMatchObject({ rowNumber: 4, label: 'Хендэ; Солярис' });
    expect(validated.errors).toEqual([
      {
        rowNumber: 5,
        field: 'vin',
        message: 'VIN: должно быть 17 символов, указано 7',
        values: {
          vin: 'XTA2107',
          documentType: '',
          number: '',
          label: 'Плохой',
          contractNumber: 'КД-4',
          pledgorName: 'Никто',
        },
      },
    ]);
    // Nothing lands before confirmation.
    const before = await app.db.query(
      'SELECT count(*)::int AS n FROM monitoring_items WHERE upload_id = $1',
      [id],
    );
    expect(before.rows[0].n).toBe(0);

    expect((await post(`/api/v1/monitoring/uploads/${id}/confirm`, user)).json().status).toBe('importing');
    await run(importUploadJob, id);
    const done = await detail(id, user);
    expect(done).toMatchObject({
      status: 'done_with_errors',
      counts: { rows: 6, accepted: 2, restored: 1, duplicates: 2, rejected: 1 },
      preview: [],
    });
    expect(done.finishedAt).not.toBeNull();
    const items = await app.db.query(
      'SELECT identifier, label, status, origin FROM monitoring_items WHERE organisation_id = $1 ORDER BY identifier',
      [user.organisationId],
    );
    expect(items.rows).toHaveLength(4);
    expect(items.rows.find((r) => r.identifier === archived)).toMatchObject({
      status: 'active',
      label: 'Хендэ; Солярис',
    });
    expect(items.rows.find((r) => r.identifier === repeated)).toMatchObject({
      label: 'Киа',
      origin: 'upload',
    });
    const staged = await app.db.query(
      'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
      [id],
    );
    expect(staged.rows[0].n).toBe(0);

    const history = (await get('/api/v1/monitoring/uploads', user)).json();
    expect(history.total).toBe(1);
    expect(history.items[0]).toMatchObject({
      id,
      fileName: 'portfolio.csv',
      statusLabel: 'Загружен с ошибками',
      author: { id: user.id, fullName: 'Тестовый Пользователь' },
    });

    const errorsCsv = await get(`/api/v1/monitoring/uploads/${id}/errors?format=csv`, user);
    expect(errorsCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(errorsCsv.headers['content-disposition']).toContain("filename*=UTF-8''portfolio-");
    expect(errorsCsv.body).toBe(
      '\uFEFFСтрока;VIN;Тип документа;Номер документа;Метка;Номер договора;Залогодатель;Ошибка\r\n' +
        '5;XTA2107;;;Плохой;КД-4;Никто;VIN: должно быть 17 символов, указано 7\r\n',
    );
    const errorsXlsx = await get(`/api/v1/monitoring/uploads/${id}/errors?format=xlsx`, user);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errorsXlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // Like every XLSX export: header frozen and filterable.
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toMatch(/^A1:[A-Z]+1$/);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Строка',
      'VIN',
      'Тип документа',
      'Номер документа',
      'Метка',
      'Номер договора',
      'Залогодатель',
      'Ошибка',
    ]);
    expect(sheet.getRow(2).getCell(1).value).toBe('5');
    expect(sheet.getRow(2).getCell(8).value).toBe('VIN: должно быть 17 символов, указано 7');

    // The error file, fixed, uploads again: the «Строка» and «Ошибка» columns are ignored.
    const fixed = errorsCsv.body.replace('XTA2107;', `${makeVin()};`);
    const again = await uploadAndProcess(user, 'fixed.csv', fixed);
    expect(again).toMatchObject({
      status: 'done',
      counts: { accepted: 1, rejected: 0 },
      ignoredColumns: ['Строка', 'Ошибка'],
    });
  });

  it('neutralises formula-like cells in the error files (CSV and XLSX)', async () => {
    const user = await createSignedInUser(app);
    const csv = [
      'VIN;Метка;Номер договора;Залогодатель',
      '=HYPERLINK("http://x");+cmd;-2+3;@SUM(1)',
      'XTA1;Обычная метка;КД-1;Иванов',
    ].join('\r\n');
    const response = await upload(user, 'formulas.csv', Buffer.from(csv));
    expect(response.statusCode).toBe(202);
    const id = response.json().id;
    await run(validateUploadJob, id);
    expect((await detail(id, user)).counts).toMatchObject({ rejected: 2 });

    const errorsCsv = await get(`/api/v1/monitoring/uploads/${id}/errors?format=csv`, user);
    const lines = errorsCsv.body.split('\r\n');
    expect(lines[1]).toMatch(/^2;"'=HYPERLINK\(""http:\/\/x""\)";;;'\+cmd;'-2\+3;'@SUM\(1\);/);
    const errorsXlsx = await get(`/api/v1/monitoring/uploads/${id}/errors?format=xlsx`, user);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(errorsXlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const cells = (row: number) =>
      [2, 5, 6, 7].map((column) => {
        const cell = sheet.getRow(row).getCell(column);
        expect(cell.type).toBe(ExcelJS.ValueType.String);
        return cell.value;
      });
    expect(cells(2)).toEqual(['\'=HYPERLINK("http://x")', "'+cmd", "'-2+3", "'@SUM(1)"]);
    // Ordinary text stays as it was.
    expect(sheet.getRow(3).getCell(5).value).toBe('Обычная метка');
    expect(lines[2]).toMatch(/^3;XTA1;;;Обычная метка;КД-1;Иванов;/);
  });

  it('reads a UTF-8 CSV with BOM and `,`, English headers and quoted fields with line breaks', async () => {
    const user = await createSignedInUser(app);
    const vin = makeVin('TMB');
    const csv = `\uFEFFvin,Label,Contract number,Pledgor\n${vin},"Škoda ""Octavia"", 2020","K-1","Line one\nline two"\n,,,\n`;
    const result = await uploadAndProcess(user, 'utf8.csv', csv);
    expect(result).toMatchObject({
      status: 'done',
      encoding: 'utf-8',
      delimiter: ',',
      counts: { rows: 1, accepted: 1 },
    });
    const item = await app.db.query(
      'SELECT label, pledgor_name FROM monitoring_items WHERE identifier = $1',
      [vin],
    );
    expect(item.rows[0]).toEqual({ label: 'Škoda "Octavia", 2020', pledgor_name: 'Line one line two' });
  });

  it('reads a tab-separated file of documents, detecting types, and rejects a row with both VIN and document', async () => {
    const user = await createSignedInUser(app);
    const csv = [
      'Тип документа\tНомер документа\tЗалогодатель\tVIN',
      'Паспорт РФ\t4506 123456\tПетров\t',
      '\t7707083893\tПАО «Банк»\t',
      'ОГРН\t1027700132196\tОшибка\t',
      'ИНН\t7707083893\tДубль\t',
      `ПТС\t78 УС 123456\tИванов\t${makeVin()}`,
    ].join('\n');
    const result = await uploadAndProcess(user, 'docs.tsv', csv, false);
    expect(result).toMatchObject({
      delimiter: '\t',
      counts: { rows: 5, accepted: 2, duplicates: 1, rejected: 2 },
    });
    expect(
      result.preview.map((r: { documentType: string; displayIdentifier: string }) => [
        r.documentType,
        r.displayIdentifier,
      ]),
    ).toEqual([
      ['passport_rf', '45 06 123456'],
      ['inn', '7707083893'],
      ['inn', '7707083893'],
    ]);
    expect(
      result.errors.map((e: { rowNumber: number; message: string }) => [e.rowNumber, e.message]),
    ).toEqual([
      [4, 'ОГРН: неверная контрольная сумма'],
      [6, expect.stringContaining('указаны и VIN, и документ')],
    ]);
  });

  it('reads an XLSX made in Excel, numbers included, and skips empty rows', async () => {
    const user = await createSignedInUser(app);
    const vin = makeVin('VF1');
    const file = await xlsx([
      ['VIN', 'Тип документа', 'Номер документа', 'Метка', 'Номер договора', 'Залогодатель'],
      [vin, '', '', 'Renault Logan', 'КД-9', 'Смирнов'],
      [],
      ['', 'inn', 7707083893, 'ИНН числом', 12345, ''],
      ['', 'epts', 164301000000001, '', '', ''],
    ]);
    const result = await uploadAndProcess(user, 'portfolio.xlsx', file);
    expect(result).toMatchObject({
      status: 'done',
      format: 'xlsx',
      counts: { rows: 3, accepted: 3, rejected: 0 },
    });
    const rows = await app.db.query(
      'SELECT identifier, contract_number FROM monitoring_items WHERE organisation_id = $1 ORDER BY identifier',
      [user.organisationId],
    );
    expect(rows.rows).toEqual([
      { identifier: '164301000000001', contract_number: null },
      { identifier: '7707083893', contract_number: '12345' },
      { identifier: vin, contract_number: 'КД-9' },
    ]);
  });

  it('reads its own templates (CSV and XLSX) back and flags the example rows left in them', async () => {
    const user = await createSignedInUser(app);
    for (const format of ['csv', 'xlsx']) {
      const template = await get(`/api/v1/monitoring/uploads/template?format=${format}`, user);
      expect(template.statusCode).toBe(200);
      expect(template.headers['content-disposition']).toContain(`.${format}`);
      const other = await createSignedInUser(app);
      const result = await uploadAndProcess(other, `template.${format}`, template.rawPayload, false);
      // Nothing to add: the upload ends by itself, its refused rows kept for the error file.
      expect(result).toMatchObject({
        status: 'done_with_errors',
        counts: { rows: 4, accepted: 0, rejected: 4 },
      });
      expect(result.errors.map((e: { message: string }) => e.message)).toEqual(
        Array(4).fill('Строка из примера шаблона — удалите её'),
      );
    }
    // An example row the user edited is their data, and the rest stay flagged.
    const edited = (await get('/api/v1/monitoring/uploads/template?format=csv', user)).body.replace(
      'LADA 2107, белый',
      'Моя LADA',
    );
    const mixed = await uploadAndProcess(await createSignedInUser(app), 'edited.csv', edited, false);
    expect(mixed.counts).toMatchObject({ rows: 4, accepted: 1, rejected: 3 });
    expect(mixed.errors.map((e: { rowNumber: number }) => e.rowNumber)).toEqual([3, 4, 5]);
    // A single column that happens to hold the example's VIN is data.
    const single = await uploadAndProcess(
      await createSignedInUser(app),
      'one.csv',
      'VIN\nXTA210740Y1234565\n',
      false,
    );
    expect(single.counts).toMatchObject({ rows: 1, accepted: 1, rejected: 0 });
    const csv = (await get('/api/v1/monitoring/uploads/template?format=csv', user)).body;
    expect(csv.split('\r\n')[0]).toBe(
      '\uFEFFVIN;Тип документа;Номер документа;Метка;Номер договора;Залогодатель',
    );
  });
});

describe('POST /api/v1/monitoring/uploads: refused files', () => {
  const refused = async (fileName: string, content: Buffer | string, status = 422) => {
    const user = await createSignedInUser(app);
    const response = await upload(user, fileName, content);
    expect(response.statusCode, response.body).toBe(status);
    const history = (await get('/api/v1/monitoring/uploads', user)).json();
    expect(history.items[0]).toMatchObject({ status: 'failed', errorMessage: response.json().message });
    const staged = await app.db.query(
      'SELECT count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(staged.rows[0].n).toBe(0);
    return response.json().message as string;
  };

  it('ends a file with nothing to add by itself, with its counts: nothing waits for a confirmation', async () => {
    const user = await createSignedInUser(app);
    const [a, b] = [makeVin(), makeVin()];
    const csv = `VIN;Метка\r\n${a};первый\r\n${b};второй\r\n`;
    expect((await uploadAndProcess(user, 'portfolio.csv', csv)).status).toBe('done');

    const again = await upload(user, 'portfolio.csv', csv);
    const id = again.json().id as string;
    await run(validateUploadJob, id);
    const ended = await detail(id, user);
    expect(ended).toMatchObject({
      status: 'done',
      counts: { rows: 2, accepted: 0, restored: 0, duplicates: 2, rejected: 0 },
    });
    expect(ended.finishedAt).not.toBeNull();
    expect((await post(`/api/v1/monitoring/uploads/${id}/confirm`, user)).statusCode).toBe(409);
    const staged = await app.db.query(
      'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
      [id],
    );
    expect(staged.rows[0].n).toBe(0);

    // Duplicates beside a refused row: it ends with errors, the error file still there.
    const withBad = await upload(user, 'bad.csv', `${csv}XTA2107;плохой\r\n`);
    await run(validateUploadJob, withBad.json().id);
    expect(await detail(withBad.json().id, user)).toMatchObject({
      status: 'done_with_errors',
      counts: { rows: 3, accepted: 0, duplicates: 2, rejected: 1 },
    });
    const errorsFile = await get(`/api/v1/monitoring/uploads/${withBad.json().id}/errors?format=csv`, user);
    expect(errorsFile.body).toContain('XTA2107');
  });

  it('refuses an empty file', async () => {
    expect(await refused('empty.csv', '')).toBe('Файл пустой');
    expect(await refused('blank.csv', '\r\n;;\r\n')).toBe('Файл пустой: в нём нет ни одной строки');
  });

  it('refuses a file without a recognisable header, and explains when the first row is data', async () => {
    expect(await refused('noheader.csv', 'Цвет;Размер\nкрасный;XL\n')).toMatch(
      /^Не найдена строка заголовков/,
    );
    expect(await refused('data.csv', `${makeVin()};Лада\n`)).toMatch(
      /^Первая строка файла — данные, а не заголовки/,
    );
  });

  it('refuses binaries by content, whatever the name', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100, 7),
    ]);
    expect(await refused('photo.csv', png)).toBe(
      'Это изображение PNG, а не таблица: загрузите файл CSV или XLSX',
    );
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(await refused('data.csv', binary)).toMatch(/^Файл не похож на таблицу CSV или XLSX/);
    expect(
      await refused('old.xlsx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])),
    ).toMatch(/XLS/);
    const notXlsx = zip({ 'readme.txt': Buffer.from('hello') });
    expect(await refused('archive.xlsx', notXlsx)).toMatch(/^Файл — ZIP-архив, но не книга Excel/);
  });

  it('refuses a file over the size limit with 413', async () => {
    const big = `VIN\n${`${'A'.repeat(17)}\n`.repeat(Math.ceil(MAX_BYTES / 18) + 10)}`;
    expect(await refused('big.csv', big, 413)).toBe(
      'Файл больше 1 МБ: разделите его на части и загрузите по очереди',
    );
  });

  it('refuses a zip bomb: a tiny XLSX whose sheet inflates far beyond the limit', async () => {
    const sheet = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const bomb = zip({
      'xl/workbook.xml': Buffer.from('<workbook><sheets><sheet name="a" r:id="rId1"/></sheets></workbook>'),
      'xl/worksheets/sheet1.xml': sheet,
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await refused('bomb.xlsx', bomb)).toMatch(/zip-бомбу/);
  });

  it('fails the upload in the job when the file holds only the header', async () => {
    const user = await createSignedInUser(app);
    const response = await upload(user, 'header.csv', 'VIN;Метка\n');
    expect(response.statusCode).toBe(202);
    await run(validateUploadJob, response.json().id);
    expect(await detail(response.json().id, user)).toMatchObject({
      status: 'failed',
      errorMessage: 'В файле нет строк с данными — только заголовок',
    });
  });

  it('asks for a file when the request has none', async () => {
    const user = await createSignedInUser(app);
    const response = await post('/api/v1/monitoring/uploads', user);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Прикрепите файл CSV или XLSX');
  });
});

describe('upload lifecycle', () => {
  it('updates progress every few thousand rows while validating', async () => {
    const user = await createSignedInUser(app);
    await app.db.query(
      `CREATE TABLE IF NOT EXISTS test_progress (upload_id uuid, rows_processed int, percent int)`,
    );
    await app.db.query(`CREATE OR REPLACE FUNCTION test_progress_log() RETURNS trigger AS $$
      BEGIN INSERT INTO test_progress VALUES (NEW.id, NEW.rows_processed, (NEW.details->>'percent')::int); RETURN NEW; END
      $$ LANGUAGE plpgsql`);
    await app.db.query(`CREATE OR REPLACE TRIGGER test_progress AFTER UPDATE ON uploads
      FOR EACH ROW EXECUTE FUNCTION test_progress_log()`);
    const rows = Array.from({ length: 12_000 }, () => `${makeVin('XW7')};Авто`);
    const response = await upload(user, 'big.csv', `VIN;Метка\n${rows.join('\n')}\n`);
    const id = response.json().id;
    await run(validateUploadJob, id);
    await app.db.query('DROP TRIGGER test_progress ON uploads');
    const log = await app.db.query<{ rows_processed: number; percent: number }>(
      'SELECT rows_processed, percent FROM test_progress WHERE upload_id = $1 AND rows_processed > 0',
      [id],
    );
    expect(log.rows.map((r) => r.rows_processed)).toEqual([5000, 10000, 12000]);
    expect(log.rows[0]!.percent).toBeGreaterThan(0);
    expect(log.rows[1]!.percent).toBeGreaterThan(log.rows[0]!.percent);
    expect(log.rows[2]!.percent).toBe(100);
  });

  it('cancels a validated upload, refuses to confirm it after, and keeps other organisations out', async () => {
    const user = await createSignedInUser(app);
    const viewer = await createSignedInUser(app, { role: 'viewer', organisationId: user.organisationId });
    const stranger = await createSignedInUser(app);
    const response = await upload(user, 'x.csv', `VIN\n${makeVin()}\n`);
    const id = response.json().id;
    await run(validateUploadJob, id);

    expect((await post(`/api/v1/monitoring/uploads/${id}/confirm`, viewer)).statusCode).toBe(403);
    expect((await post(`/api/v1/monitoring/uploads/${id}/cancel`, viewer)).statusCode).toBe(403);
    expect((await upload(viewer, 'v.csv', `VIN\n${makeVin()}\n`)).statusCode).toBe(403);
    expect((await get(`/api/v1/monitoring/uploads/${id}`, viewer)).statusCode).toBe(200);
    expect((await get(`/api/v1/monitoring/uploads/${id}`, stranger)).statusCode).toBe(404);
    expect((await post(`/api/v1/monitoring/uploads/${id}/cancel`, stranger)).statusCode).toBe(404);
    expect((await get(`/api/v1/monitoring/uploads/${id}/errors?format=csv`, stranger)).statusCode).toBe(404);
    expect((await get('/api/v1/monitoring/uploads', stranger)).json().total).toBe(0);

    const cancelled = await post(`/api/v1/monitoring/uploads/${id}/cancel`, user);
    expect(cancelled.json().status).toBe('cancelled');
    const staged = await app.db.query(
      'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
      [id],
    );
    expect(staged.rows[0].n).toBe(0);
    const confirm = await post(`/api/v1/monitoring/uploads/${id}/confirm`, user);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().message).toBe('Подтвердить можно только проверенную загрузку; сейчас: «Отменён»');
    expect((await post(`/api/v1/monitoring/uploads/${id}/cancel`, user)).statusCode).toBe(409);
  });

  it('cancels an upload while it is checked: the validation stops at once and keeps nothing; also before it starts', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 50_000 }, () => makeVin('XWB'));
    const id = (await upload(user, 'big.csv', `VIN\n${vins.join('\n')}\n`)).json().id as string;
    const validation = run(validateUploadJob, id);
    const state = async () =>
      (
        await app.db.query<{ status: string; rows_processed: number }>(
          'SELECT status, rows_processed FROM uploads WHERE id = $1',
          [id],
        )
      ).rows[0]!;
    await expect
      .poll(
        async () => {
          const row = await state();
          return row.status === 'validating' && row.rows_processed > 0;
        },
        { timeout: 30_000, interval: 20 },
      )
      .toBe(true);
    const cancelled = await post(`/api/v1/monitoring/uploads/${id}/cancel`, user);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', statusLabel: 'Отменён' });
    const t0 = performance.now();
    await validation;
    // The loop looks at the status at least every half second.
    expect(performance.now() - t0).toBeLessThan(1500);
    const row = await state();
    expect(row.status).toBe('cancelled');
    expect(row.rows_processed).toBeLessThan(vins.length);
    const kept = await app.db.query<{ staged: number; errors: number; items: number }>(
      `SELECT (SELECT count(*)::int FROM upload_item_rows WHERE upload_id = $1) AS staged,
              (SELECT count(*)::int FROM upload_errors WHERE upload_id = $1) AS errors,
              (SELECT count(*)::int FROM monitoring_items WHERE organisation_id = $2) AS items`,
      [id, user.organisationId],
    );
    expect(kept.rows[0]).toEqual({ staged: 0, errors: 0, items: 0 });
    expect((await detail(id, user)).status).toBe('cancelled');

    // Cancelled while still queued: the job, when it comes, leaves it cancelled.
    const queued = (await upload(user, 'q.csv', `VIN\n${makeVin()}\n`)).json().id as string;
    expect((await post(`/api/v1/monitoring/uploads/${queued}/cancel`, user)).json().status).toBe('cancelled');
    await run(validateUploadJob, queued);
    expect((await detail(queued, user)).status).toBe('cancelled');
  });

  it('imports right after validation with autoConfirm=true and pages the history newest first', async () => {
    const user = await createSignedInUser(app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await upload(user, `auto-${i}.csv`, `VIN\n${makeVin()}\n`, '?autoConfirm=true');
      expect(response.json().autoConfirm).toBe(true);
      ids.push(response.json().id);
    }
    await run(validateUploadJob, ids[0]!);
    expect((await detail(ids[0]!, user)).status).toBe('importing');
    const queued = await app.db.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'uploads.import' AND data->>'uploadId' = $1`,
      [ids[0]],
    );
    expect(queued.rows[0].n).toBe(1);
    await run(importUploadJob, ids[0]!);
    expect((await detail(ids[0]!, user)).status).toBe('done');

    const page = (await get('/api/v1/monitoring/uploads?page=1&pageSize=2', user)).json();
    expect(page.total).toBe(3);
    expect(page.items.map((u: { fileName: string }) => u.fileName)).toEqual(['auto-2.csv', 'auto-1.csv']);
    const filtered = (await get('/api/v1/monitoring/uploads?status=done&kind=items', user)).json();
    expect(filtered.items.map((u: { id: string }) => u.id)).toEqual([ids[0]]);
  });

  it('a failure mid-import lands nothing: retried, then failed with a Russian message after the last try', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 50 }, () => makeVin('XWE'));
    const poison = vins[30]!;
    await app.db.query(`CREATE OR REPLACE FUNCTION test_poison() RETURNS trigger AS $$
      BEGIN IF NEW.identifier = '${poison}' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END
      $$ LANGUAGE plpgsql`);
    await app.db.query(`CREATE OR REPLACE TRIGGER test_poison BEFORE INSERT ON monitoring_items
      FOR EACH ROW EXECUTE FUNCTION test_poison()`);
    try {
      const response = await upload(user, 'poison.csv', `VIN\n${vins.join('\n')}\n`, '?autoConfirm=true');
      const id = response.json().id;
      await run(validateUploadJob, id);
      await expect(run(importUploadJob, id)).rejects.toThrow('disk on fire');
      expect((await detail(id, user)).status).toBe('importing');
      const count = async () =>
        (
          await app.db.query('SELECT count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1', [
            user.organisationId,
          ])
        ).rows[0].n;
      expect(await count()).toBe(0);

      await expect(run(importUploadJob, id, true)).rejects.toThrow('disk on fire');
      expect(await detail(id, user)).toMatchObject({ status: 'failed', errorMessage: IMPORT_FAILED_MESSAGE });
      expect(await count()).toBe(0);
      const staged = await app.db.query(
        'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
        [id],
      );
      expect(staged.rows[0].n).toBe(0);
    } finally {
      await app.db.query('DROP TRIGGER IF EXISTS test_poison ON monitoring_items');
    }
  });

  it('fails instead of importing part of an upload whose staged rows were lost', async () => {
    const user = await createSignedInUser(app);
    const response = await upload(user, 'lost.csv', `VIN\n${makeVin()}\n${makeVin()}\n`);
    const id = response.json().id;
    await run(validateUploadJob, id);
    await app.db.query(
      'DELETE FROM upload_item_rows WHERE ctid IN (SELECT ctid FROM upload_item_rows WHERE upload_id = $1 LIMIT 1)',
      [id],
    );
    await post(`/api/v1/monitoring/uploads/${id}/confirm`, user);
    await run(importUploadJob, id);
    expect(await detail(id, user)).toMatchObject({ status: 'failed', errorMessage: STAGING_LOST_MESSAGE });
    const items = await app.db.query('SELECT count(*)::int AS n FROM monitoring_items WHERE upload_id = $1', [
      id,
    ]);
    expect(items.rows[0].n).toBe(0);
  });
});

describe('upload jobs with workers', () => {
  it('runs validation and import on the queue end to end', async () => {
    const worker = await buildTestApp({ config: { dataDir }, runWorkers: true });
    const user = await createSignedInUser(worker.app);
    const body = multipart('queued.csv', `VIN;Метка\n${makeVin()};Очередь\n`);
    const response = await worker.app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/uploads?autoConfirm=true',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(user.token) },
    });
    const id = response.json().id;
    let status = '';
    for (let i = 0; i < 100 && status !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (
        await worker.app.inject({
          method: 'GET',
          url: `/api/v1/monitoring/uploads/${id}`,
          headers: bearer(user.token),
        })
      ).json().status;
    }
    expect(status).toBe('done');
  });
});
