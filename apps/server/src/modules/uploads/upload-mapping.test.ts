import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { multipartFile } from '../checks/testing/checks-test-helpers.ts';
import { importUploadJob } from './jobs/import-upload.job.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-mapping-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({
  config: { dataDir, uploadMaxBytes: 1024 * 1024, uploadMaxUnzippedBytes: 16 * 1024 * 1024 },
});
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

let serial = 710000;
function makeVin(): string {
  const body = `XTA210740P${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

/** Windows-1251 bytes of a text, through the decoder's own table. */
const CP1251 = new Map(
  Array.from({ length: 256 }, (_, byte) => [
    new TextDecoder('windows-1251').decode(Uint8Array.of(byte)),
    byte,
  ]),
);
const cp1251 = (text: string) =>
  Buffer.from(
    [...text].map((char) => CP1251.get(char) ?? (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 0x3f)),
  );

const run = (job: typeof validateUploadJob | typeof importUploadJob, uploadId: string) =>
  job.handler({ id: 'test', data: { uploadId }, retryCount: 0, retryLimit: 3 }, context);
const inject = (method: 'GET' | 'POST', url: string, user: TestUser, payload?: object) =>
  app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const detail = async (id: string, user: TestUser) =>
  (await inject('GET', `/api/v1/monitoring/uploads/${id}`, user)).json();

async function send(
  user: TestUser,
  fileName: string,
  content: Buffer | string,
  url = '/api/v1/monitoring/uploads',
) {
  const body = multipartFile(fileName, content);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
}

const itemsOf = async (user: TestUser) =>
  (
    await app.db.query<{ identifier: string; contract_number: string | null; pledgor_name: string | null }>(
      `SELECT identifier, contract_number, pledgor_name FROM monitoring_items WHERE organisation_id = $1
        ORDER BY identifier`,
      [user.organisationId],
    )
  ).rows;

/** A portfolio as a core system exports it: a title, a branch line, «№ п/п», own names, a totals line. */
function bankRows(vins: string[]): string[][] {
  return [
    ['Реестр залогового имущества на 01.03.2026', '', '', ''],
    ['Филиал «Казанский»', '', '', ''],
    ['', '', '', ''],
    ['№ п/п', 'VIN (идентификационный номер)', 'Номер договора залога', 'ФИО залогодателя'],
    ...vins.map((vin, i) => [String(i + 1), vin, `ДЗ-${i + 1}/2026`, `Залогодатель ${i + 1}`]),
    [`Итого: ${vins.length} единицы`, '', '', ''],
  ];
}

async function bankXlsx(vins: string[], sheetsBefore: string[] = []): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const name of sheetsBefore) {
    workbook.addWorksheet(name).addRow(['Инструкция: таблица на следующем листе']);
  }
  const sheet = workbook.addWorksheet('Портфель');
  for (const row of bankRows(vins)) {
    sheet.addRow(row);
  }
  sheet.mergeCells('A1:D1');
  sheet.mergeCells('A2:D2');
  sheet.mergeCells(`A${vins.length + 5}:D${vins.length + 5}`);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function validated(user: TestUser, response: Awaited<ReturnType<typeof send>>) {
  expect(response.statusCode, response.body).toBe(202);
  const id = response.json().id as string;
  await run(validateUploadJob, id);
  return detail(id, user);
}

describe('a bank export uploaded as it is (issue #25)', () => {
  it.each([
    ['XLSX with merged title, branch and totals lines', 'portfolio.xlsx', bankXlsx],
    [
      'CSV in Windows-1251',
      'portfolio.csv',
      async (vins: string[]) =>
        cp1251(
          bankRows(vins)
            .map((row) => row.join(';'))
            .join('\r\n'),
        ),
    ],
  ])(
    '%s: finds the header in row 4, maps the columns by name, skips the totals and imports every item with its contract',
    async (_name, fileName, build) => {
      const user = await createSignedInUser(app);
      const vins = [makeVin(), makeVin(), makeVin(), makeVin()];
      const response = await send(user, fileName, await build(vins));
      expect(response.json().status).toBe('received');
      const upload = await validated(user, response);
      expect(upload).toMatchObject({
        status: 'validated',
        headerRow: 4,
        skippedAbove: 'Строки 1–3 пропущены: заголовок найден в строке 4',
        counts: { rows: 4, accepted: 4, rejected: 0, skipped: 1 },
        skippedRows: [{ rowNumber: 9, text: 'Итого: 4 единицы' }],
        ignoredColumns: ['№ п/п'],
        mapping: { source: 'auto', question: null },
      });
      expect(
        upload.fileColumns.map((c: { field: string | null; match: string | null }) => [c.field, c.match]),
      ).toEqual([
        [null, null],
        ['vin', 'synonym'],
        ['contractNumber', 'synonym'],
        ['pledgorName', 'synonym'],
      ]);
      expect(upload.preview.map((row: { rowNumber: number }) => row.rowNumber)).toEqual([5, 6, 7, 8]);
      expect((await inject('POST', `/api/v1/monitoring/uploads/${upload.id}/confirm`, user)).statusCode).toBe(
        200,
      );
      await run(importUploadJob, upload.id);
      expect(await itemsOf(user)).toEqual(
        vins
          .map((vin, i) => ({
            identifier: vin,
            contract_number: `ДЗ-${i + 1}/2026`,
            pledgor_name: `Залогодатель ${i + 1}`,
          }))
          .sort((a, b) => a.identifier.localeCompare(b.identifier)),
      );
    },
  );

  it('keeps the file’s own row numbers in errors below a found header', async () => {
    const user = await createSignedInUser(app);
    const csv = ['Выгрузка', '', 'VIN;Договор', `${makeVin()};Д-1`, 'BADVIN;Д-2', 'Всего;2'].join('\n');
    const upload = await validated(user, await send(user, 'rows.csv', csv));
    expect(upload.counts).toMatchObject({ rows: 2, accepted: 1, rejected: 1, skipped: 1 });
    expect(upload.errors).toMatchObject([{ rowNumber: 5, field: 'vin' }]);
  });

  it('refuses a file whose header is beyond row 30, and imports nothing', async () => {
    const user = await createSignedInUser(app);
    const lines = [
      ...Array.from({ length: 32 }, (_, i) => `Пояснение ${i + 1}`),
      'VIN;Метка',
      `${makeVin()};x`,
    ];
    const response = await send(user, 'low.csv', lines.join('\n'));
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'Заголовок таблицы найден только в строке 33, а его ищут в первых 30 строках: удалите лишние строки над таблицей и загрузите файл ещё раз',
    );
    expect(await itemsOf(user)).toEqual([]);
  });
});

describe('the mapping step', () => {
  const unknownHeader = (vins: string[]) =>
    [
      'Список ТС',
      'Идент.;Договор;Клиент;Филиал',
      ...vins.map((vin, i) => `${vin};К-${i};Клиент ${i};Казань`),
    ].join('\n');

  it('stops at the mapping step without an identifier column, refuses bad mappings, and goes on with a good one', async () => {
    const user = await createSignedInUser(app);
    const vins = [makeVin(), makeVin(), makeVin(), makeVin()];
    const response = await send(user, 'unknown.csv', unknownHeader(vins));
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({
      status: 'needs_mapping',
      statusLabel: 'Ждёт сопоставления столбцов',
    });
    const id = response.json().id as string;
    await run(validateUploadJob, id); // nothing to do until the user answers
    const waiting = await detail(id, user);
    expect(waiting).toMatchObject({
      status: 'needs_mapping',
      headerRow: 2,
      skippedAbove: 'Строка 1 пропущена: заголовок найден в строке 2',
      mapping: {
        source: 'auto',
        question: 'Не найден столбец «VIN» или «Номер документа»: укажите, что хранится в каждом столбце',
      },
    });
    expect(waiting.fileColumns).toEqual([
      { index: 0, header: 'Идент.', samples: vins.slice(0, 3), field: null, match: null, ambiguous: false },
      {
        index: 1,
        header: 'Договор',
        samples: ['К-0', 'К-1', 'К-2'],
        field: 'contractNumber',
        match: 'synonym',
        ambiguous: false,
      },
      {
        index: 2,
        header: 'Клиент',
        samples: ['Клиент 0', 'Клиент 1', 'Клиент 2'],
        field: null,
        match: null,
        ambiguous: false,
      },
      {
        index: 3,
        header: 'Филиал',
        samples: ['Казань', 'Казань', 'Казань'],
        field: null,
        match: null,
        ambiguous: false,
      },
    ]);
    expect(
      waiting.fields.filter((f: { key: boolean }) => f.key).map((f: { field: string }) => f.field),
    ).toEqual(['vin', 'number']);

    const map = (who: TestUser, columns: object[]) =>
      inject('POST', `/api/v1/monitoring/uploads/${id}/mapping`, who, { columns });
    const refusals: [object[], string][] = [
      [
        [{ column: 1, field: 'contractNumber' }],
        'Не выбран столбец «VIN» или «Номер документа»: без него строки загрузить нельзя. Ничего не загружено',
      ],
      [
        [
          { column: 0, field: 'vin' },
          { column: 0, field: 'label' },
        ],
        'Столбец «Идент.» указан в сопоставлении дважды: выберите для него одно поле',
      ],
      [
        [
          { column: 0, field: 'vin' },
          { column: 1, field: 'label' },
          { column: 2, field: 'label' },
        ],
        'Поле «Метка» выбрано для двух столбцов: «Договор» и «Клиент» — оставьте один',
      ],
      [[{ column: 9, field: 'vin' }], 'Столбца № 10 в файле нет: в нём 4 столбцов'],
    ];
    for (const [columns, message] of refusals) {
      const refused = await map(user, columns);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(message);
    }
    const stranger = await createSignedInUser(app);
    const foreign = await map(stranger, [{ column: 0, field: 'vin' }]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Загрузка не найдена');
    const viewer = await createSignedInUser(app, { role: 'viewer', organisationId: user.organisationId });
    expect((await map(viewer, [{ column: 0, field: 'vin' }])).statusCode).toBe(403);
    expect(await detail(id, user)).toMatchObject({ status: 'needs_mapping', counts: { rows: 0 } });

    const mapped = await map(user, [
      { column: 0, field: 'vin' },
      { column: 1, field: 'contractNumber' },
      { column: 2, field: 'pledgorName' },
      { column: 3, field: null },
    ]);
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect(mapped.json().status).toBe('received');
    await run(validateUploadJob, id);
    const checked = await detail(id, user);
    expect(checked).toMatchObject({
      status: 'validated',
      counts: { rows: 4, accepted: 4, rejected: 0 },
      mapping: { source: 'chosen', question: null },
      ignoredColumns: ['Филиал'],
    });
    expect(
      checked.fileColumns.map((c: { field: string | null; match: string | null }) => [c.field, c.match]),
    ).toEqual([
      ['vin', 'chosen'],
      ['contractNumber', 'chosen'],
      ['pledgorName', 'chosen'],
      [null, null],
    ]);
    expect(checked.preview[0]).toMatchObject({
      identifier: vins[0],
      contractNumber: 'К-0',
      pledgorName: 'Клиент 0',
    });
  });

  it('remembers the mapping for the organisation’s next file with the same header, which can still be changed', async () => {
    const user = await createSignedInUser(app);
    const first = await send(user, 'first.csv', unknownHeader([makeVin(), makeVin()]));
    const firstId = first.json().id as string;
    await inject('POST', `/api/v1/monitoring/uploads/${firstId}/mapping`, user, {
      columns: [
        { column: 0, field: 'vin' },
        { column: 2, field: 'label' },
      ],
    });

    const vins = [makeVin(), makeVin(), makeVin()];
    const second = await send(user, 'second.csv', unknownHeader(vins));
    expect(second.json().status).toBe('received');
    const checked = await validated(user, second);
    expect(checked).toMatchObject({ status: 'validated', mapping: { source: 'remembered', question: null } });
    expect(checked.fileColumns.map((c: { field: string | null }) => c.field)).toEqual([
      'vin',
      null,
      'label',
      null,
    ]);
    expect(checked.preview[0]).toMatchObject({
      identifier: vins[0],
      label: 'Клиент 0',
      contractNumber: null,
    });

    // Changed from the preview: validation runs again with the new choice, which is remembered.
    const changed = await inject('POST', `/api/v1/monitoring/uploads/${checked.id}/mapping`, user, {
      columns: [
        { column: 0, field: 'vin' },
        { column: 1, field: 'contractNumber' },
      ],
    });
    expect(changed.json()).toMatchObject({ status: 'received', counts: { rows: 0, accepted: 0 } });
    await run(validateUploadJob, checked.id);
    expect((await detail(checked.id, user)).preview[0]).toMatchObject({ contractNumber: 'К-0', label: null });
    const third = await send(user, 'third.csv', unknownHeader([makeVin()]));
    expect((await validated(user, third)).fileColumns.map((c: { field: string | null }) => c.field)).toEqual([
      'vin',
      'contractNumber',
      null,
      null,
    ]);

    // Another organisation's file with the same header is asked afresh.
    const other = await createSignedInUser(app);
    expect((await send(other, 'other.csv', unknownHeader([makeVin()]))).json().status).toBe('needs_mapping');
  });

  it('asks when two columns could be the same field', async () => {
    const user = await createSignedInUser(app);
    const csv = ['VIN;Договор;Номер договора', `${makeVin()};Д-1;Н-1`].join('\n');
    const response = await send(user, 'twice.csv', csv);
    expect(response.json().status).toBe('needs_mapping');
    const waiting = await detail(response.json().id, user);
    expect(waiting.mapping.question).toBe(
      'Столбцы «Договор», «Номер договора» похожи на одно поле «Номер договора»: выберите, какой загружать',
    );
    expect(waiting.fileColumns.map((c: { ambiguous: boolean }) => c.ambiguous)).toEqual([false, true, true]);
  });
});

describe('workbooks with several sheets', () => {
  it('reads the first sheet with a header, lists the sheets and reads another when asked', async () => {
    const user = await createSignedInUser(app);
    const vins = [makeVin(), makeVin()];
    const upload = await validated(user, await send(user, 'book.xlsx', await bankXlsx(vins, ['Инструкция'])));
    expect(upload).toMatchObject({
      status: 'validated',
      sheet: 1,
      sheets: [
        { index: 0, name: 'Инструкция' },
        { index: 1, name: 'Портфель' },
      ],
      counts: { rows: 2 },
    });
    const refused = await inject('POST', `/api/v1/monitoring/uploads/${upload.id}/sheet`, user, { sheet: 0 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/^Лист «Инструкция»: Не найдена строка заголовков/);
    expect(await detail(upload.id, user)).toMatchObject({
      status: 'validated',
      sheet: 1,
      counts: { rows: 2 },
    });
    const missing = await inject('POST', `/api/v1/monitoring/uploads/${upload.id}/sheet`, user, { sheet: 5 });
    expect(missing.json().message).toBe('В книге нет листа № 6: в ней 2 лист(ов)');

    // A workbook with two tables: the second is read when chosen.
    const workbook = new ExcelJS.Workbook();
    const other = [makeVin(), makeVin(), makeVin()];
    workbook.addWorksheet('Январь').addRows([['VIN'], [makeVin()]]);
    workbook
      .addWorksheet('Февраль')
      .addRows([['Отчёт за февраль'], ['VIN', 'Договор'], ...other.map((vin) => [vin, 'Ф-1'])]);
    const two = await validated(
      user,
      await send(user, 'two.xlsx', Buffer.from(await workbook.xlsx.writeBuffer())),
    );
    expect(two).toMatchObject({ sheet: 0, counts: { rows: 1 } });
    const chosen = await inject('POST', `/api/v1/monitoring/uploads/${two.id}/sheet`, user, { sheet: 1 });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await run(validateUploadJob, two.id);
    expect(await detail(two.id, user)).toMatchObject({
      status: 'validated',
      sheet: 1,
      headerRow: 2,
      counts: { rows: 3 },
    });
  });
});

describe('pledge-event uploads', () => {
  it('find the template header under a title and skip the totals line', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    const template = await inject('GET', '/api/v1/pledges/upload-template?format=csv', user);
    const lines = template.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    const width = lines[0]!.split(';').length;
    const csv = ['Уведомления о залоге за март', ...lines, `Итого${';'.repeat(width - 1)}`].join('\r\n');
    const upload = await validated(
      user,
      await send(user, 'events.csv', csv, '/api/v1/monitoring/regular-check/upload-events'),
    );
    expect(upload).toMatchObject({
      kind: 'pledge_events',
      headerRow: 2,
      skippedAbove: 'Строка 1 пропущена: заголовок найден в строке 2',
      counts: { rows: lines.length - 1, skipped: 1 },
    });
    // The template's own example rows are refused as such, under their row numbers in this file.
    expect(
      upload.errors.map((row: { rowNumber: number; message: string }) => [row.rowNumber, row.message]),
    ).toEqual(lines.slice(1).map((_, i) => [i + 3, 'Строка из примера шаблона — удалите её']));
  });
});
