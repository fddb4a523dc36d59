import http from 'node:http';
import { neutralise } from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import {
  insertEvent,
  insertItem,
  insertOneTimeCheck,
  insertRun,
  insertUpload,
} from '../statistics/testing/statistics-fixtures.ts';
import { encodeCp1251 } from './report-files.ts';

const { app } = await buildTestApp();

async function report(user: TestUser, query: Record<string, string>) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/monitoring/report?${new URLSearchParams(query)}`,
    headers: bearer(user.token),
  });
  return response;
}

/** CSV lines split into cells (`;`, quotes doubled inside quoted cells). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ';') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  return rows;
}

async function pdfText(buffer: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

let user: TestUser;
const EVENT_PERIOD = { kind: 'events', from: '2026-03-01', to: '2026-03-05' };
beforeAll(async () => {
  user = await createSignedInUser(app);
  const org = user.organisationId;
  const item = await insertItem(app.db, org, {
    identifier: 'XTA210990Y2765432',
    label: '=HYPERLINK("http://evil")',
    contractNumber: '+7-КД-001',
    createdAt: '2026-01-10T09:00:00Z',
  });
  const document = await insertItem(app.db, org, {
    kind: 'document',
    identifier: '4506123456',
    label: 'Иванов Иван',
    pledgorName: '@Иванов',
    createdAt: '2026-01-10T09:00:00Z',
  });
  const run = await insertRun(app.db, org, { createdAt: '2026-03-01T10:00:00Z' });
  await insertEvent(app.db, {
    organisationId: org,
    itemId: item,
    runId: run,
    type: 'pledge_registered_other',
    source: 'pledges',
    severity: 'critical',
    findingKey: 'NOTICE-1',
    // 21:30 UTC on 2 March is 00:30 on 3 March in Moscow.
    detectedAt: '2026-03-02T21:30:00Z',
    after: { notice_number: '2026-001-000001-777', pledgee: 'Банк «Чужой»', registered_at: '2026-03-02' },
  });
  await insertEvent(app.db, {
    organisationId: org,
    itemId: document,
    runId: run,
    type: 'bankruptcy_opened',
    source: 'bankruptcy',
    severity: 'critical',
    detectedAt: '2026-03-04T09:15:00Z',
    read: true,
  });
  await insertEvent(app.db, {
    organisationId: org,
    itemId: item,
    runId: run,
    type: 'wanted_added',
    source: 'wanted',
    detectedAt: '2026-02-20T09:15:00Z',
  });
  await app.db.query(
    `INSERT INTO finding_snapshots (item_id, source_type, organisation_id, findings, hash)
     VALUES ($1, 'pledges', $2, '[{"key":"NOTICE-1","payload":{}}]', 'x'),
            ($1, 'restrictions', $2, '[{"key":"R-1","payload":{}},{"key":"R-2","payload":{}}]', 'y')`,
    [item, org],
  );
  await insertOneTimeCheck(app.db, org, {
    identifier: 'XTA210990Y2765432',
    createdAt: '2026-03-03T12:00:00Z',
    status: 'partial',
    findings: 1,
    sources: [
      { type: 'pledges', name: 'Реестр залогов', status: 'ok', findings: [{ key: 'N' }] },
      { type: 'wanted', name: 'Розыск', status: 'failed', findings: [] },
    ],
  });
  await insertUpload(app.db, org, {
    createdAt: '2026-03-04T07:00:00Z',
    fileName: 'портфель март.csv',
    rows: 12,
    accepted: 10,
    rejected: 2,
  });
});

describe('GET /api/v1/monitoring/report', () => {
  it('events as CSV in UTF-8 with BOM: Russian name and headers, Moscow dates, neutralised formulas', async () => {
    const response = await report(user, { ...EVENT_PERIOD, format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('События 01.03.2026–05.03.2026.csv')}`,
    );
    expect(response.headers['x-report-rows']).toBe('2');
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([
      'Обнаружено (МСК)',
      'Событие',
      'Важность',
      'Источник',
      'Вид объекта',
      'VIN / номер документа',
      'Тип документа',
      'Метка',
      'Номер договора',
      'Запись источника',
      'Было',
      'Стало',
      'Прочитано',
    ]);
    expect(rows).toHaveLength(3);
    // Newest first.
    expect(rows[1]!.slice(0, 6)).toEqual([
      '04.03.2026 12:15',
      'Возбуждено дело о банкротстве',
      'Критическая',
      'Банкротство',
      'Документ',
      '45 06 123456',
    ]);
    expect(rows[1]![12]).toBe('Да');
    expect(rows[2]).toEqual([
      '03.03.2026 00:30',
      'Залог зарегистрирован другим кредитором',
      'Критическая',
      'Реестр залогов',
      'VIN',
      'XTA210990Y2765432',
      '',
      `'=HYPERLINK("http://evil")`,
      "'+7-КД-001",
      'NOTICE-1',
      '',
      'Номер уведомления: 2026-001-000001-777; Дата регистрации: 02.03.2026; Залогодержатель: Банк «Чужой»',
      'Нет',
    ]);
  });

  it('CSV in Windows-1251 without BOM, when asked', async () => {
    const response = await report(user, { ...EVENT_PERIOD, format: 'csv', encoding: 'windows-1251' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=windows-1251');
    const bytes = response.rawPayload;
    expect(bytes[0]).not.toBe(0xef);
    // «О» of «Обнаружено» is 0xCE in Windows-1251.
    expect(bytes[0]).toBe(0xce);
    const rows = parseCsv(new TextDecoder('windows-1251').decode(bytes));
    expect(rows[0]![0]).toBe('Обнаружено (МСК)');
    expect(rows[2]![11]).toBe(
      'Номер уведомления: 2026-001-000001-777; Дата регистрации: 02.03.2026; Залогодержатель: Банк «Чужой»',
    );
  });

  it('events as XLSX: parsed back with exceljs, formulas kept as text', async () => {
    const response = await report(user, {
      ...EVENT_PERIOD,
      format: 'xlsx',
      severity: 'critical',
      read: 'false',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('События')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Обнаружено (МСК)');
    expect(sheet.getRow(1).getCell(12).value).toBe('Стало');
    // Only the unread critical event.
    expect(sheet.actualRowCount).toBe(2);
    const row = sheet.getRow(2);
    // A real date cell holding the Moscow wall clock (00:30 on 3 March), shown as such.
    expect(row.getCell(1).value).toEqual(new Date(Date.UTC(2026, 2, 3, 0, 30)));
    expect(row.getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm');
    // Header frozen, filterable, and each column at least as wide as its header.
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:M1');
    sheet.getRow(1).eachCell((cell, column) => {
      expect(sheet.getColumn(column).width!).toBeGreaterThanOrEqual(String(cell.value).length + 4);
    });
    expect(row.getCell(6).value).toBe('XTA210990Y2765432');
    expect(row.getCell(8).value).toBe(`'=HYPERLINK("http://evil")`);
    expect(row.getCell(8).formula).toBeUndefined();
  });

  it('the portfolio with current findings, in every format', async () => {
    const csv = await report(user, { kind: 'portfolio', format: 'csv' });
    expect(csv.statusCode).toBe(200);
    expect(decodeURIComponent(csv.headers['content-disposition'] as string)).toMatch(
      /Портфель на \d\d\.\d\d\.\d{4}\.csv/,
    );
    const rows = parseCsv(csv.rawPayload.subarray(3).toString('utf8'));
    expect(rows[0]).toContain('Источники с находками');
    expect(rows).toHaveLength(3);
    // Documents before VINs (by kind, then identifier).
    expect(rows[1]!.slice(0, 7)).toEqual([
      'Документ',
      '45 06 123456',
      'Паспорт РФ',
      'Иванов Иван',
      '',
      "'@Иванов",
      'На мониторинге',
    ]);
    expect(rows[2]![1]).toBe('XTA210990Y2765432');
    expect(rows[2]![8]).toBe('10.01.2026 12:00');
    expect(rows[2]![10]).toBe('3');
    expect(rows[2]![11]).toBe('Реестр залогов, Ограничения');
    expect(rows[2]![12]).toBe('2');

    const xlsx = await report(user, { kind: 'portfolio', format: 'xlsx', itemKind: 'vin' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Портфель')!;
    expect(sheet.actualRowCount).toBe(2);
    expect(sheet.getRow(2).getCell(11).value).toBe(3);

    const pdf = await report(user, { kind: 'portfolio', format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Портфель с текущими находками');
    expect(text).toContain('XTA210990Y2765432');
    expect(text).toContain('45 06 123456');
    expect(text).toContain('Источники с');
  });

  it('one-time checks and uploads for a period', async () => {
    const checks = await report(user, {
      kind: 'one_time_checks',
      format: 'csv',
      from: '2026-03-01',
      to: '2026-03-31',
    });
    const checkRows = parseCsv(checks.rawPayload.subarray(3).toString('utf8'));
    expect(checkRows).toHaveLength(2);
    expect(checkRows[1]!.slice(1)).toEqual([
      '03.03.2026 15:00',
      'VIN',
      'XTA210990Y2765432',
      '',
      'Часть источников недоступна',
      '1',
      'Реестр залогов',
      'Розыск',
      'Тестовый Пользователь',
    ]);
    const uploads = await report(user, {
      kind: 'uploads',
      format: 'pdf',
      from: '2026-03-01',
      to: '2026-03-31',
    });
    const text = await pdfText(uploads.rawPayload);
    expect(text).toContain('Загрузки файлов');
    expect(text).toContain('портфель март.csv');
    expect(text).toContain('Период: 01.03.2026–31.03.2026');
  });

  it('a PDF holds at most 2000 rows and says so', async () => {
    const many = await createSignedInUser(app);
    await app.db.query(
      `INSERT INTO uploads (organisation_id, kind, file_name, status, created_at)
       SELECT $1, 'items', 'file-' || g || '.csv', 'done', now() - make_interval(mins => g) FROM generate_series(1, 2001) g`,
      [many.organisationId],
    );
    const response = await report(many, { kind: 'uploads', format: 'pdf' });
    expect(response.headers['x-report-rows']).toBe('2001');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Показаны первые 2000 строк из 2001');
    expect(text).toContain('file-2000.csv');
    expect(text).not.toContain('file-2001.csv');
  }, 60_000);

  it('every report in XLSX has real date cells (Moscow wall clock) and an autofilter', async () => {
    const cases: [Record<string, string>, string, number, Date][] = [
      [{ kind: 'portfolio' }, 'Портфель', 9, new Date(Date.UTC(2026, 0, 10, 12, 0))],
      [
        { kind: 'one_time_checks', from: '2026-03-01', to: '2026-03-05' },
        'Разовые проверки',
        2,
        new Date(Date.UTC(2026, 2, 3, 15, 0)),
      ],
      [
        { kind: 'uploads', from: '2026-03-01', to: '2026-03-05' },
        'Загрузки',
        1,
        new Date(Date.UTC(2026, 2, 4, 10, 0)),
      ],
    ];
    for (const [query, sheetName, column, expected] of cases) {
      const response = await report(user, { ...query, format: 'xlsx' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet(sheetName)!;
      expect(sheet.autoFilter, sheetName).toMatch(/^A1:[A-Z]+1$/);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      const values = sheet.getColumn(column).values.slice(2);
      expect(values, sheetName).toContainEqual(expected);
      expect(sheet.getRow(2).getCell(column).numFmt).toBe('dd.mm.yyyy hh:mm');
    }
  });

  it('the events PDF is laid out for reading: no word cut apart, 2,000 events on few pages', async () => {
    const many = await createSignedInUser(app);
    const item = await insertItem(app.db, many.organisationId, {
      identifier: 'XTA210990Y2765432',
      label: 'Грузовой автомобиль',
      contractNumber: 'КД-2026/0001',
    });
    const run = await insertRun(app.db, many.organisationId, { createdAt: '2026-03-01T10:00:00Z' });
    const after = JSON.stringify({
      notice_number: '2026-001-000001-777',
      pledgee: 'Банк «Чужой»',
      registered_at: '2026-03-02',
    });
    await app.db.query(
      `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity, finding_key,
                                      after, detected_at, read_at)
       SELECT $1, $2, $3, 'pledges', 'pledge_registered_other', 'critical', 'N-' || g, $4::jsonb,
              timestamptz '2026-03-02 09:00Z' + make_interval(mins => g), CASE WHEN g % 2 = 0 THEN now() END
       FROM generate_series(1, 2000) g`,
      [many.organisationId, item, run, after],
    );
    const response = await report(many, { ...EVENT_PERIOD, format: 'pdf' });
    expect(response.statusCode).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(response.rawPayload) });
    try {
      const { total } = await parser.getInfo();
      // Three lines a row at most here (was 359 pages for 1,918 real events, about five rows a page).
      expect(total).toBeLessThanOrEqual(110);
      const text = (await parser.getText()).text;
      // Headers and values whole: «Прочитано» was printed as «Проч / итан / о».
      for (const word of [
        'Обнаружено',
        'Событие',
        'Важность',
        'Источник',
        'Объект',
        'Залогодержатель',
        'уведомления',
      ]) {
        expect(text).toMatch(new RegExp(`(^|\\s)${word}`));
      }
      expect(text).toContain('XTA210990Y2765432');
      expect(text).toContain('Договор КД-2026/0001');
      // Working columns are left to XLSX and CSV.
      expect(text).not.toContain('Прочитано');
      expect(text).not.toContain('Запись источника');
    } finally {
      await parser.destroy();
    }
  }, 120_000);

  it('shows an organisation only its own rows', async () => {
    const stranger = await createSignedInUser(app);
    for (const kind of ['events', 'portfolio', 'one_time_checks', 'uploads']) {
      const response = await report(stranger, {
        kind,
        format: 'csv',
        from: '2026-01-01',
        to: '2026-12-31',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-report-rows']).toBe('0');
      expect(parseCsv(response.rawPayload.subarray(3).toString('utf8'))).toHaveLength(1);
    }
  });

  it('needs a period for events, a known kind, and a session; a cookie is enough for a download', async () => {
    const noPeriod = await report(user, { kind: 'events', format: 'csv' });
    expect(noPeriod.statusCode).toBe(422);
    expect(noPeriod.json().fieldErrors.map((error: { field: string }) => error.field)).toEqual([
      'from',
      'to',
    ]);
    expect((await report(user, { kind: 'nothing' })).statusCode).toBe(422);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/monitoring/report?kind=portfolio' });
    expect(anonymous.statusCode).toBe(401);
    const cookie = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/report?kind=portfolio&format=csv',
      headers: { cookie: `auth_token=${user.token}` },
    });
    expect(cookie.statusCode).toBe(200);
  });
});

describe('report cells', () => {
  it('neutralises = + - @ tab and CR at the start only', () => {
    expect(['=1+2', '+7', '-5', '@SUM(A1)', '\t=1', '\r=1', 'a=b', '', 'Текст'].map(neutralise)).toEqual([
      "'=1+2",
      "'+7",
      "'-5",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
      'a=b',
      '',
      'Текст',
    ]);
  });

  it('encodes Windows-1251 and replaces what it lacks', () => {
    expect([...encodeCp1251('Ёж №1 €')]).toEqual([0xa8, 0xe6, 0x20, 0xb9, 0x31, 0x20, 0x88]);
    expect(encodeCp1251('日').toString('latin1')).toBe('?');
  });
});

describe('a large report is streamed', () => {
  // 200,000 items and a ~70 MB report read twice: a minute on a quiet machine, more beside other runs.
  it('holds an open cursor while the client has read only the start, and closes it when abandoned', {
    timeout: 300_000,
  }, async () => {
    const big = await createSignedInUser(app);
    // Long labels make the report (~70 MB) larger than anything loopback's socket buffers can hold
    // (the receiver autotunes up to tcp_rmem's 32 MB here): only a streaming server is still inside
    // its cursor when the client stops reading.
    await app.db.query(
      `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, origin)
       SELECT $1, 'vin', 'XTB' || lpad(g::text, 14, '0'), 'Партия ' || (g % 100) || ' ' || repeat('х', 150), 'upload'
         FROM generate_series(1, 200000) g`,
      [big.organisationId],
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const openCursors = async () =>
      (
        await app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE 'FETCH % FROM report_cursor'`,
        )
      ).rows[0]!.n;

    // Read the first chunk, then stop reading: the server must be part-way through the cursor.
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `http://127.0.0.1:${port}/api/v1/monitoring/report?kind=portfolio&format=csv`,
          { headers: bearer(big.token) },
          resolve,
        )
        .on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-report-rows']).toBe('200000');
    // Paused mode: the iterator reads only when asked.
    const chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = (await chunks.next()).value as Buffer;
    expect(first.length).toBeLessThan(1024 * 1024);
    // A non-streaming server has finished its query by now; a streaming one waits inside its cursor.
    let open = 0;
    for (let i = 0; i < 50 && open !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await openCursors();
    }
    expect(open).toBe(1);

    // Going on reads the whole report; every row arrives.
    const countLines = (chunk: Buffer) => chunk.reduce((sum, byte) => sum + (byte === 0x0a ? 1 : 0), 0);
    let lines = countLines(first);
    for (let step = await chunks.next(); !step.done; step = await chunks.next()) {
      lines += countLines(step.value);
    }
    expect(lines).toBe(200_001);
    expect(await openCursors()).toBe(0);

    // A cancelled download gives the connection back without its transaction.
    const cancelled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `http://127.0.0.1:${port}/api/v1/monitoring/report?kind=portfolio&format=xlsx`,
          { headers: bearer(big.token) },
          resolve,
        )
        .on('error', reject);
    });
    await new Promise((resolve) => cancelled.once('data', resolve));
    cancelled.destroy();
    // Generous: on a loaded CI machine noticing the closed socket can take a few seconds.
    for (let i = 0; i < 300 && (await openCursors()) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await openCursors()).toBe(0);
  });
});
