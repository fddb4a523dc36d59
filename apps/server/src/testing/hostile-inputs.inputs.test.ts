/**
 * The hostile-file and hostile-request corpus (`npm run test:inputs`). Every case asserts the exact
 * status, a Russian message, that nothing was written, and that the server stayed responsive: a
 * cheap request over real HTTP (GET /api/v1/build/info) answered fast, and the event loop was never
 * blocked, while the case ran. Small files live in ./corpus (see its README); big ones are made here.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { validateVin } from '@pledgewatch/identifiers';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../jobs/job-definition.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import { buildTestApp, createSignedInUser, type TestUser } from './test-app.ts';

const corpus = (name: string) => readFile(new URL(`./corpus/${name}`, import.meta.url));

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-inputs-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
/** Small enough to send a file over it quickly, big enough for the huge-cell file. */
const MAX_BYTES = 40 * 1024 * 1024;
/** Above the 74 MB nested-tag sheet (its declared size must pass), below the 100 MB zip bomb. */
const MAX_UNZIPPED_BYTES = 80 * 1024 * 1024;
const { app, config } = await buildTestApp({
  config: { dataDir, uploadMaxBytes: MAX_BYTES, uploadMaxUnzippedBytes: MAX_UNZIPPED_BYTES },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

let cases = 0;
afterEach(() => {
  cases++;
});
afterAll(() => {
  console.log(`inputs corpus: ${cases} cases`);
});

const VIN_A = 'XTA210740Y1234565';
const VIN_B = 'Z94CB41AAER123456';
const CYRILLIC = /[а-яё]/i;

// ─── Helpers ────────────────────────────────────────────────────────────────────────────────

/**
 * Probe answers slower than this, or an event-loop stall longer than this, fail the case. The
 * defects this guards against stalled for 5 s (a padded XLSX row) to minutes (a rescanned CSV cell);
 * the margin over a quiet machine's few milliseconds absorbs a loaded 2-core CI runner.
 */
const RESPONSIVE_MS = 1500;

/**
 * The bounds here are a quiet 2-core runner's. Other processes on the same cores (parallel test runs
 * on a developer's machine) stretch every wall-clock time by about the load per core: the bounds
 * stretch with it, so a loaded machine does not fail a case that a quiet one passes. The defects keep
 * failing: they stall for seconds to minutes on a quiet machine.
 */
const stretched = (ms: number) => ms * Math.max(1, os.loadavg()[0]! / os.availableParallelism());

/**
 * Runs the case's work while another client keeps asking GET /api/v1/build/info over real HTTP,
 * and the event-loop delay is measured: the server must stay responsive throughout.
 */
async function responsive<T>(work: () => Promise<T>): Promise<T> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    // The case's own client starts first: its request body is built in this process too.
    await new Promise((resolve) => setImmediate(resolve));
    do {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/build/info`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    } while (!done);
  })();
  try {
    return await work();
  } finally {
    done = true;
    await probe;
    delay.disable();
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies), `probe latencies ${latencies.map(Math.round).join(', ')}`).toBeLessThan(
      stretched(RESPONSIVE_MS),
    );
    expect(delay.max / 1e6, 'event-loop delay, ms').toBeLessThan(stretched(RESPONSIVE_MS));
  }
}

interface Answer {
  status: number;
  json: Record<string, unknown> & { message?: string; code?: string };
  text: string;
  headers: Headers;
}

async function call(
  method: string,
  url: string,
  user: TestUser | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = {
    method,
    headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
  };
  if (body !== undefined) {
    if (typeof body === 'string' || body instanceof FormData || Buffer.isBuffer(body)) {
      init.body = body as RequestInit['body'];
    } else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
  }
  const response = await fetch(`${base}${url}`, init);
  const text = await response.text();
  let json = {};
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, json, text, headers: response.headers };
}

const UPLOADS = '/api/v1/monitoring/uploads';
const EVENTS_UPLOAD = '/api/v1/monitoring/regular-check/upload-events';

function fileForm(fileName: string, content: Buffer | string) {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  return form;
}

function sendFile(user: TestUser, fileName: string, content: Buffer | string | FormData, url = UPLOADS) {
  return call('POST', url, user, content instanceof FormData ? content : fileForm(fileName, content));
}

const runJob = (job: typeof validateUploadJob | typeof importUploadJob, uploadId: string) =>
  job.handler({ id: 'test', data: { uploadId }, retryCount: 0, retryLimit: 2 }, context);

/** Rows an organisation has in the tables an upload or a form writes to. */
async function written(organisationId: string) {
  const { rows } = await app.db.query<{ items: number; events: number; rules: number }>(
    `SELECT (SELECT count(*)::int FROM monitoring_items WHERE organisation_id = $1) AS items,
            (SELECT count(*)::int FROM pledge_events WHERE organisation_id = $1) AS events,
            (SELECT count(*)::int FROM notification_rules WHERE organisation_id = $1) AS rules`,
    [organisationId],
  );
  return rows[0]!;
}

const NOTHING = { items: 0, events: 0, rules: 0 };

async function uploadRow(uploadId: string) {
  const { rows } = await app.db.query<{ status: string; error_message: string | null }>(
    'SELECT status, error_message FROM uploads WHERE id = $1',
    [uploadId],
  );
  return rows[0];
}

/** A refused file: the exact status and message, the history row failed, nothing else written. */
async function expectRefused(
  user: TestUser,
  answer: Answer,
  status: number,
  message: string | RegExp,
  code = status === 413 ? 'UPLOAD_TOO_LARGE' : 'UPLOAD_INVALID_FILE',
) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json.code).toBe(code);
  expect(answer.json.message).toMatch(CYRILLIC);
  expect(answer.json.message).toMatch(message);
  expect(await written(user.organisationId)).toEqual(NOTHING);
  const { rows } = await app.db.query<{ status: string; error_message: string }>(
    'SELECT status, error_message FROM uploads WHERE organisation_id = $1',
    [user.organisationId],
  );
  expect(rows).toEqual([{ status: 'failed', error_message: answer.json.message }]);
}

/** Accepted for checking (202), then validated in the job; returns the upload detail. */
async function acceptAndValidate(
  user: TestUser,
  fileName: string,
  content: Buffer | string | FormData,
  url = UPLOADS,
) {
  const answer = await sendFile(user, fileName, content, url);
  expect(answer.status, answer.text).toBe(202);
  const id = answer.json.id as string;
  await runJob(validateUploadJob, id);
  const detail = await call('GET', `${UPLOADS}/${id}`, user);
  expect(detail.status, detail.text).toBe(200);
  return { id, detail: detail.json as Record<string, never> };
}

async function confirmAndImport(user: TestUser, id: string) {
  expect((await call('POST', `${UPLOADS}/${id}/confirm`, user)).status).toBe(200);
  await runJob(importUploadJob, id);
  return (await call('GET', `${UPLOADS}/${id}`, user)).json as Record<string, never>;
}

async function errorRows(user: TestUser, id: string) {
  const answer = await call('GET', `${UPLOADS}/${id}/error-rows?page=1&pageSize=100`, user);
  expect(answer.status, answer.text).toBe(200);
  return answer.json.items as { rowNumber: number; message: string; values: Record<string, string> }[];
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) {
      crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** An entry deflated ahead (see deflatedFlood), with its unpacked size. */
interface Deflated {
  deflated: Buffer;
  size: number;
}

/** A zip of deflated entries; `declared` overrides an entry's declared uncompressed size (bomb). */
function zip(entries: Record<string, Buffer | Deflated>, declared: Record<string, number> = {}): Buffer {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const compressed = Buffer.isBuffer(data) ? deflateRawSync(data, { level: 9 }) : data.deflated;
    const nameBytes = Buffer.from(name);
    const size = declared[name] ?? (Buffer.isBuffer(data) ? data.length : data.size);
    const crc = !Buffer.isBuffer(data) || data.length > 1e6 ? 0 : crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, compressed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const WORKBOOK = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Лист1" sheetId="1" r:id="rId1"/></sheets></workbook>',
);
const RELS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
);
const sheetXml = (rows: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
  );
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER_ROW = `<row r="1">${inline('A1', 'VIN')}${inline('B1', 'Метка')}</row>`;

// The pledge-event template's header and a valid row (as in pledges.test.ts).
const EVENT_HEADER = [
  'Вид уведомления',
  'Регистрационный номер',
  'Дата уведомления',
  'Залогодатель: тип',
  'Залогодатель: фамилия',
  'Залогодатель: имя',
  'Залогодатель: отчество',
  'Залогодатель: дата рождения',
  'Залогодатель: вид документа',
  'Залогодатель: серия и номер документа',
  'Залогодержатель: тип',
  'Залогодержатель: наименование',
  'Залогодержатель: ИНН',
  'Залогодержатель: ОГРН',
  'Договор: номер',
  'Договор: дата',
  'Договор: срок исполнения',
  'VIN',
  'Описание ТС',
];
const eventRow = (vin: string, description = 'Kia Rio') =>
  [
    'Возникновение',
    '',
    '01.03.2025',
    'ФЛ',
    'Петров',
    'Пётр',
    'Петрович',
    '05.06.1985',
    'Паспорт РФ',
    '4510 654321',
    'ЮЛ',
    'ПАО Сбербанк',
    '7707083893',
    '1027700132195',
    'ДЗ-1',
    '01.03.2025',
    '01.03.2030',
    vin,
    description,
  ].join(';');

// ─── Files ──────────────────────────────────────────────────────────────────────────────────

describe('hostile files: refused at once', () => {
  it('the corpus VINs are valid (the cases below rely on it)', () => {
    expect(validateVin(VIN_A).ok && validateVin(VIN_B).ok).toBe(true);
  });

  const refused: [string, string, number, string | RegExp][] = [
    ['empty.csv', 'an empty file', 422, 'Файл пустой'],
    ['binary-junk.csv', 'binary junk named .csv', 422, 'Файл не похож на таблицу CSV или XLSX'],
    ['png-named.csv', 'a PNG named .csv', 422, 'Это изображение PNG, а не таблица'],
    ['utf-16.csv', 'a UTF-16 CSV', 422, 'Файл в кодировке UTF-16'],
    ['nul-early.csv', 'a NUL byte in the first 8 KB of a CSV', 422, 'Файл не похож на таблицу CSV или XLSX'],
    ['not-a-workbook.zip', 'a ZIP that is not a workbook', 422, 'но не книга Excel (XLSX)'],
    ['header-only.csv', 'a CSV with only the header', 202, ''],
    ['data-no-header.csv', 'data without a header', 422, 'Первая строка файла — данные, а не заголовки'],
    [
      'huge-column-index-header.xlsx',
      'an XLSX header cell at column ZZZZZZ',
      422,
      'В строке заголовков больше 256 столбцов',
    ],
  ];
  for (const [file, title, status, message] of refused.filter(([, , status]) => status !== 202)) {
    it(`${title} (${file}) → ${status}`, async () => {
      const user = await createSignedInUser(app);
      const answer = await responsive(async () => sendFile(user, file, await corpus(file)));
      await expectRefused(user, answer, status, message);
    });
  }

  it('a CSV with only the header: accepted, then the upload fails in the job with a Russian reason', async () => {
    const user = await createSignedInUser(app);
    const { id } = await responsive(() =>
      corpus('header-only.csv').then((c) => acceptAndValidate(user, 'h.csv', c)),
    );
    expect(await uploadRow(id)).toEqual({
      status: 'failed',
      error_message: 'В файле нет строк с данными — только заголовок',
    });
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('a truncated XLSX (the first half of a real workbook) → 422', async () => {
    const user = await createSignedInUser(app);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Портфель');
    sheet.addRow(['VIN', 'Метка']);
    for (let i = 0; i < 200; i++) {
      sheet.addRow([VIN_A, `Метка ${i}`]);
    }
    const full = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await responsive(() => sendFile(user, 'cut.xlsx', full.subarray(0, full.length >> 1)));
    await expectRefused(user, answer, 422, /Файл XLSX повреждён/);
  });

  it('a zip bomb: a 100 KB XLSX whose sheet inflates to 100 MB → 422 without inflating it', async () => {
    const user = await createSignedInUser(app);
    const bomb = zip({
      'xl/workbook.xml': WORKBOOK,
      'xl/_rels/workbook.xml.rels': RELS,
      'xl/worksheets/sheet1.xml': Buffer.alloc(100 * 1024 * 1024, 0x20),
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    const answer = await responsive(() => sendFile(user, 'bomb.xlsx', bomb));
    await expectRefused(user, answer, 422, 'похоже на «zip-бомбу»');
  });

  it('a zip bomb that lies about its sizes: stopped while inflating, the upload fails with the reason', async () => {
    const user = await createSignedInUser(app);
    const sheet = Buffer.concat([
      sheetXml(`${HEADER_ROW}<row r="2">${inline('A2', VIN_A)}</row>`),
      Buffer.alloc(20e6, 0x20),
    ]);
    const bomb = zip(
      { 'xl/workbook.xml': WORKBOOK, 'xl/_rels/workbook.xml.rels': RELS, 'xl/worksheets/sheet1.xml': sheet },
      { 'xl/worksheets/sheet1.xml': 4096 },
    );
    const answer = await responsive(() => sendFile(user, 'liar.xlsx', bomb));
    // The header is read within the declared size; the sheet's overflow is caught by yauzl in the job.
    if (answer.status === 202) {
      await runJob(validateUploadJob, answer.json.id as string);
      const row = await uploadRow(answer.json.id as string);
      expect(row?.status).toBe('failed');
      expect(row?.error_message).toMatch(/zip-бомбу|повреждён/);
      expect(await written(user.organisationId)).toEqual(NOTHING);
    } else {
      await expectRefused(user, answer, 422, /zip-бомбу|повреждён/);
    }
  });

  it('a file over UPLOAD_MAX_BYTES → 413, nothing kept', async () => {
    const user = await createSignedInUser(app);
    const big = Buffer.alloc(MAX_BYTES + 1024, 'a');
    big.write('VIN;Метка\r\n');
    const form = fileForm('big.csv', big);
    const answer = await responsive(() => sendFile(user, 'big.csv', form));
    await expectRefused(user, answer, 413, 'Файл больше 40 МБ');
  });

  it('a request without a file (JSON instead of multipart) → 400', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(() => call('POST', UPLOADS, user, { file: 'VIN;Метка' }));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'UPLOAD_NO_FILE', message: 'Прикрепите файл CSV или XLSX' });
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('thousands of columns in the header → 422 (not read into memory)', async () => {
    const user = await createSignedInUser(app);
    const header = ['VIN', 'Метка', ...Array.from({ length: 5000 }, (_, i) => `Столбец ${i}`)].join(';');
    const answer = await responsive(() => sendFile(user, 'wide.csv', `${header}\r\n${VIN_A};x\r\n`));
    await expectRefused(user, answer, 422, 'В строке заголовков больше 256 столбцов');
  });
});

/**
 * Markup repeated to `bytes` (Buffer.fill: no string of that size is ever built here). The security
 * re-test's files: blocks of 200 `<t>` and one `<u a="…">`, 24 million open tags in 74 MB (a 1.2 MB
 * file), and 10 million `<t>` in 30 MB (a 30 KB file).
 */
const NESTED_BLOCK = `${'<t>'.repeat(200)}<u a="${'x'.repeat(8)}">`;
/** `pattern` repeated over `bytes`, between two strings. */
interface Flood {
  pattern: string;
  bytes: number;
}
const nestedSizes: [string, Flood][] = [
  ['24 million nested tags (74 MB unpacked)', { pattern: NESTED_BLOCK, bytes: 74 * 1024 * 1024 }],
  ['10 million nested <t> (30 MB unpacked)', { pattern: '<t>', bytes: 30_000_000 }],
];

/**
 * head + flood + tail, deflated as a stream from one reused 1 MB chunk: the unpacked part is never
 * held whole here, so what the case leaves in this process's RSS is the server's doing.
 */
async function deflatedFlood(head: string, flood: Flood, tail: string): Promise<Deflated> {
  const chunk = Buffer.alloc(
    Buffer.byteLength(flood.pattern) * Math.ceil(2 ** 20 / flood.pattern.length),
    flood.pattern,
  );
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const write = (data: Buffer) =>
    deflate.write(data) ? undefined : new Promise((resolve) => deflate.once('drain', resolve));
  await write(Buffer.from(head));
  for (let left = flood.bytes; left > 0; left -= chunk.length) {
    await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
  }
  deflate.end(Buffer.from(tail));
  await ended;
  return {
    deflated: Buffer.concat(out),
    size: Buffer.byteLength(head) + flood.bytes + Buffer.byteLength(tail),
  };
}
const DEPTH_MESSAGE = 'Файл XLSX отклонён: вложенность элементов XML глубже 64 уровней';
/** Empty rows before the flood: the request's header check never reaches it, the job does. */
const FILLER_ROWS = Array.from({ length: 5000 }, (_, i) => `<row r="${i + 2}"></row>`).join('');
const SST_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

/** The sheet (or shared strings) with `flood` spliced in where `place` says. */
async function floodedWorkbook(
  place: 'cell' | 'between rows' | 'shared strings',
  flood: Flood,
): Promise<Buffer> {
  const head = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${HEADER_ROW}${FILLER_ROWS}`;
  const tail = '</sheetData></worksheet>';
  const parts: Record<string, Buffer | Deflated> = {
    'xl/workbook.xml': WORKBOOK,
    'xl/_rels/workbook.xml.rels': RELS,
  };
  if (place === 'shared strings') {
    parts['xl/sharedStrings.xml'] = await deflatedFlood(`${SST_OPEN}<si><t>`, flood, '');
    parts['xl/worksheets/sheet1.xml'] = sheetXml(`${HEADER_ROW}<row r="2">${inline('A2', VIN_A)}</row>`);
  } else if (place === 'cell') {
    const cell = `<row r="9000"><c r="A9000" t="inlineStr"><is><t>${VIN_A}</t></is></c><c r="B9000" t="inlineStr"><is>`;
    parts['xl/worksheets/sheet1.xml'] = await deflatedFlood(head + cell, flood, tail);
  } else {
    parts['xl/worksheets/sheet1.xml'] = await deflatedFlood(head, flood, tail);
  }
  return zip(parts);
}

/** Nothing of the upload kept: no items, no staged rows, no error rows. */
async function nothingKept(user: TestUser) {
  expect(await written(user.organisationId)).toEqual(NOTHING);
  const { rows } = await app.db.query<{ staged: number; errors: number }>(
    `SELECT (SELECT count(*)::int FROM upload_item_rows r JOIN uploads u ON u.id = r.upload_id
              WHERE u.organisation_id = $1) AS staged,
            (SELECT count(*)::int FROM upload_errors e JOIN uploads u ON u.id = e.upload_id
              WHERE u.organisation_id = $1) AS errors`,
    [user.organisationId],
  );
  expect(rows[0]).toEqual({ staged: 0, errors: 0 });
}

/** Sends the file; an answer of 202 runs the validation job. Either way the upload ends failed. */
async function expectFailedUpload(user: TestUser, name: string, file: Buffer, message: string | RegExp) {
  await responsive(async () => {
    const answer = await sendFile(user, name, file);
    if (answer.status === 202) {
      await runJob(validateUploadJob, answer.json.id as string);
      const row = await uploadRow(answer.json.id as string);
      expect(row?.status).toBe('failed');
      expect(row?.error_message).toMatch(CYRILLIC);
      expect(row?.error_message).toMatch(message);
    } else {
      await expectRefused(user, answer, 422, message);
    }
  });
  await nothingKept(user);
}

/**
 * What a hostile case may leave in the process's RSS once it is over. The old reader kept 2.7 GB of live
 * parser state from a 30 KB file. The bound is on what the case adds, not on the process's whole RSS:
 * that starts where the machine puts it (317 MB before these cases on a 2-core machine, about 390 MB on
 * the CI runner, for reasons not looked into), so a fixed 400 MB bound measured the
 * runner, not the case.
 */
const KEPT_MB = 50;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

function rssNowMb(): number {
  collectGarbage();
  return process.memoryUsage().rss / 1024 / 1024;
}

/**
 * The process's RSS once garbage is collected: what the case kept, not what a collector that has
 * not run yet still holds (this process also built the case's 74 MB file). Freed pages go back to the
 * system a moment after the collection (V8 unmaps them on its own threads; CI saw 505 MB right after it
 * in a case whose next ones read 385 MB), so it is read again for up to 3 s while it is above `bound`:
 * memory a case kept stays, whatever the wait.
 */
async function rssAfterMb(bound: number): Promise<number> {
  let rss = rssNowMb();
  for (let attempt = 1; attempt < 15 && rss >= bound; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    rss = rssNowMb();
  }
  return rss;
}

/** Runs a hostile case and fails it if the process's RSS stays more than KEPT_MB above where it began. */
async function keepsNoMemory(label: string, hostileCase: () => Promise<void>) {
  const before = rssNowMb();
  await hostileCase();
  const after = await rssAfterMb(before + KEPT_MB);
  console.log(`${label}: RSS ${Math.round(before)} MB before, ${Math.round(after)} MB after`);
  expect(after - before).toBeLessThan(KEPT_MB);
}

describe('hostile files: nested tags (XML depth, element and size caps)', () => {
  // The first case, run unmeasured: the first one paid the process's own growth to its working
  // size (RSS 317 → 365 / 376 MB in two CI runs, +48 and +59 MB; every later case, the same file
  // included, kept ±1 MB), so the bound measured the process, not the case.
  beforeAll(async () => {
    const user = await createSignedInUser(app);
    await expectFailedUpload(
      user,
      'nested.xlsx',
      await floodedWorkbook('cell', nestedSizes[0]![1]),
      DEPTH_MESSAGE,
    );
  }, 60_000);

  for (const [size, flood] of nestedSizes) {
    for (const place of ['cell', 'between rows', 'shared strings'] as const) {
      it(`${size} ${place === 'shared strings' ? 'in the shared strings' : place === 'cell' ? 'in a cell' : 'between rows'}: failed with the reason, RSS back within ${KEPT_MB} MB of before`, async () => {
        await keepsNoMemory(`nested tags, ${size} ${place}`, async () => {
          const user = await createSignedInUser(app);
          const file = await floodedWorkbook(place, flood);
          expect(file.length).toBeLessThan(2 * 1024 * 1024);
          await expectFailedUpload(user, 'nested.xlsx', file, DEPTH_MESSAGE);
        });
      }, 60_000);
    }
  }

  it('7.5 million sibling <t/> in one cell: refused by the per-row element cap', async () => {
    await keepsNoMemory('7.5 million sibling <t/>', async () => {
      const user = await createSignedInUser(app);
      // 30 MB: under the size from which a compression ratio alone refuses the file.
      const file = await floodedWorkbook('cell', { pattern: '<t/>', bytes: 30_000_000 });
      await expectFailedUpload(user, 'flat.xlsx', file, 'в одной строке листа больше 100000 элементов XML');
    });
  }, 60_000);

  it('a DOCTYPE with entity declarations in the sheet → refused, nothing expanded', async () => {
    const user = await createSignedInUser(app);
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const sheet = Buffer.from(
      `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY l0 "lol">${lol}]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${HEADER_ROW}<row r="2">${inline('A2', '&l9;')}</row></sheetData></worksheet>`,
    );
    const file = zip({
      'xl/workbook.xml': WORKBOOK,
      'xl/_rels/workbook.xml.rels': RELS,
      'xl/worksheets/sheet1.xml': sheet,
    });
    await expectFailedUpload(user, 'lol.xlsx', file, 'объявления DOCTYPE и ENTITY в XML не допускаются');
  });
});

describe('hostile files: read, bad rows refused with their reason', () => {
  it('a 32 MB cell: the row is refused, the cell is never held whole, the detail and the error file work', async () => {
    // 32 MB proves the cap (the issue's file had 150 MB) and keeps CI time sane.
    const user = await createSignedInUser(app);
    const cell = 'Щ'.repeat(16 * 1024 * 1024); // 2 bytes each in UTF-8: 32 MB
    const file = fileForm('huge-cell.csv', `VIN;Метка\r\n${VIN_A};${cell}\r\n${VIN_B};обычная\r\n`);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const { id, detail } = await responsive(() => acceptAndValidate(user, 'huge-cell.csv', file)).finally(
      () => clearInterval(sampler),
    );
    // The file itself is in this process (the client's buffers); the server adds little on top.
    expect((rssPeak - rssBefore) / 1024 / 1024).toBeLessThan(400);
    expect(detail).toMatchObject({ status: 'validated', counts: { rows: 2, accepted: 1, rejected: 1 } });
    const [error] = await errorRows(user, id);
    expect(error).toMatchObject({
      rowNumber: 2,
      message: 'Значение в столбце «Метка» длиннее 1000 символов',
    });
    expect(error!.values.label).toBe(`${'Щ'.repeat(500)}…`);
    const { rows } = await app.db.query<{ size: number }>(
      "SELECT max(octet_length(array_to_string(raw, ''))) AS size FROM upload_errors WHERE upload_id = $1",
      [id],
    );
    expect(rows[0]!.size).toBeLessThan(2000);
    const errorsFile = await call('GET', `${UPLOADS}/${id}/errors?format=csv`, user);
    expect(errorsFile.status).toBe(200);
    expect(errorsFile.text.trim().split('\r\n')).toHaveLength(2);
    expect(errorsFile.text).toContain('длиннее 1000 символов');
    const xlsxFile = await fetch(`${base}${UPLOADS}/${id}/errors?format=xlsx`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(xlsxFile.status).toBe(200);
    expect((await xlsxFile.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(await written(user.organisationId)).toEqual(NOTHING);
    const imported = await confirmAndImport(user, id);
    expect(imported).toMatchObject({ status: 'done_with_errors', counts: { accepted: 1 } });
    const { rows: items } = await app.db.query(
      'SELECT identifier FROM monitoring_items WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(items).toEqual([{ identifier: VIN_B }]);
  });

  it('a 5 MB cell inside quotes with line breaks and doubled quotes: refused, the next row read', async () => {
    const user = await createSignedInUser(app);
    const cell = `"${'a""b\r\n'.repeat(800_000)}"`;
    const { id, detail } = await responsive(() =>
      acceptAndValidate(user, 'quoted.csv', `VIN;Метка\r\n${VIN_A};${cell}\r\n${VIN_B};ok\r\n`),
    );
    expect(detail).toMatchObject({ counts: { rows: 2, accepted: 1, rejected: 1 } });
    expect((await errorRows(user, id))[0]!.message).toBe('Значение в столбце «Метка» длиннее 1000 символов');
  });

  it('an XLSX cell at ZZZZZZ2: ignored, answered in a fraction of a second, no row padded to it', async () => {
    const user = await createSignedInUser(app);
    const started = performance.now();
    const { detail } = await responsive(async () =>
      acceptAndValidate(user, 'far.xlsx', await corpus('huge-column-index.xlsx')),
    );
    expect(performance.now() - started).toBeLessThan(stretched(3000));
    expect(detail).toMatchObject({ status: 'validated', counts: { rows: 1, accepted: 1, rejected: 0 } });
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('thousands of filled cells in data rows beyond the header: ignored', async () => {
    const user = await createSignedInUser(app);
    const extra = ';x'.repeat(5000);
    const { detail } = await responsive(() =>
      acceptAndValidate(user, 'wide-rows.csv', `VIN;Метка\r\n${VIN_A};a${extra}\r\n${VIN_B};b${extra}\r\n`),
    );
    expect(detail).toMatchObject({ status: 'validated', counts: { rows: 2, accepted: 2, rejected: 0 } });
  });

  it('an XLSX row numbered 99999999999 → the upload fails as a damaged file, not a database error', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(async () =>
      sendFile(user, 'rows.xlsx', await corpus('huge-row-number.xlsx')),
    );
    if (answer.status === 202) {
      await runJob(validateUploadJob, answer.json.id as string);
      expect(await uploadRow(answer.json.id as string)).toEqual({
        status: 'failed',
        error_message: 'Файл XLSX повреждён: неверный номер строки в листе',
      });
      expect(await written(user.organisationId)).toEqual(NOTHING);
    } else {
      await expectRefused(user, answer, 422, 'Файл XLSX повреждён: неверный номер строки в листе');
    }
  });

  it('an XLSX with a 3 MB shared string and a 3 MB inline string: both rows refused', async () => {
    const user = await createSignedInUser(app);
    const long = 'Ж'.repeat(3 * 1024 * 1024);
    const shared = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${long}</t></si></sst>`,
    );
    const sheet = sheetXml(
      `${HEADER_ROW}<row r="2">${inline('A2', VIN_A)}<c r="B2" t="s"><v>0</v></c></row>` +
        `<row r="3">${inline('A3', VIN_B)}${inline('B3', `&amp;${long}&lt;&gt;`)}</row>`,
    );
    const file = zip({
      'xl/workbook.xml': WORKBOOK,
      'xl/_rels/workbook.xml.rels': RELS,
      'xl/sharedStrings.xml': shared,
      'xl/worksheets/sheet1.xml': sheet,
    });
    const { id, detail } = await responsive(() => acceptAndValidate(user, 'long.xlsx', file));
    expect(detail).toMatchObject({
      status: 'done_with_errors',
      counts: { rows: 2, accepted: 0, rejected: 2 },
    });
    const errors = await errorRows(user, id);
    expect(errors.map((row) => row.message)).toEqual([
      'Значение в столбце «Метка» длиннее 1000 символов',
      'Значение в столбце «Метка» длиннее 1000 символов',
    ]);
    expect(errors[1]!.values.label).toBe(`&${'Ж'.repeat(499)}…`);
  });

  it('a 50 000-row file: validated while other requests keep answering fast', async () => {
    const user = await createSignedInUser(app);
    const rows = Array.from({ length: 50_000 }, (_, i) => `${i % 2 ? VIN_A : VIN_B};Метка ${i}`);
    const { detail } = await responsive(() =>
      acceptAndValidate(user, 'many.csv', `VIN;Метка\r\n${rows.join('\r\n')}`),
    );
    expect(detail).toMatchObject({
      status: 'validated',
      counts: { rows: 50_000, accepted: 2, duplicates: 49_998 },
    });
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('an error row stored before the caps (a 20 MB value): the migration clips it, the detail works', async () => {
    const user = await createSignedInUser(app);
    const { id } = await acceptAndValidate(user, 'old.csv', `VIN;Метка\r\n${VIN_A};ok\r\nплохой;x\r\n`);
    await app.db.query(
      'UPDATE upload_errors SET raw = ARRAY[$2, repeat($3, 20000000)] WHERE upload_id = $1',
      [id, 'плохой', 'ы'],
    );
    // Reading such a row stalls the pg client's array parser for seconds: the migration clips it.
    const migration = await readFile(
      new URL('../db/migrations/0013_clip_upload_error_raw.sql', import.meta.url),
      'utf8',
    );
    await app.db.query(migration);
    const { rows } = await app.db.query('SELECT raw FROM upload_errors WHERE upload_id = $1', [id]);
    expect(rows).toEqual([{ raw: ['плохой', `${'ы'.repeat(500)}…`] }]);
    const detail = await responsive(() => call('GET', `${UPLOADS}/${id}`, user));
    expect(detail.status).toBe(200);
    expect(detail.json.errors).toEqual([
      expect.objectContaining({
        values: expect.objectContaining({ vin: 'плохой', documentType: `${'ы'.repeat(500)}…` }),
      }),
    ]);
    const file = await responsive(() => call('GET', `${UPLOADS}/${id}/errors?format=csv`, user));
    expect(file.status).toBe(200);
    expect(file.text).toContain(`${'ы'.repeat(500)}…`);
  });

  it('a NUL byte in a CSV cell past the sniffed head: that row refused, the others read', async () => {
    const user = await createSignedInUser(app);
    const padding = Array.from({ length: 300 }, () => `${VIN_B};${'x'.repeat(30)}`).join('\r\n');
    const file = `VIN;Метка\r\n${padding}\r\n${VIN_A};a\0b\r\n`;
    const { id, detail } = await responsive(() => acceptAndValidate(user, 'nul.csv', file));
    expect(detail).toMatchObject({ status: 'validated', counts: { rows: 301, rejected: 1 } });
    const errors = await errorRows(user, id);
    expect(errors).toEqual([
      {
        rowNumber: 302,
        field: 'label',
        message: 'Значение в столбце «Метка» содержит недопустимый нулевой символ (NUL)',
        values: expect.objectContaining({ vin: VIN_A, label: 'a\uFFFDb' }),
      },
    ]);
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('a NUL character reference in an XLSX cell → the file is refused as damaged', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(async () => sendFile(user, 'nul.xlsx', await corpus('nul-in-cell.xlsx')));
    await expectRefused(user, answer, 422, /Файл XLSX повреждён/);
  });

  it('a NUL in the file name: refused at the edge like every other field, nothing written', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(() => sendFile(user, 'port\u0000folio.csv', `VIN\r\n${VIN_A}\r\n`));
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.code).toBe('INVALID_CHARACTERS');
    expect(answer.json.message).toMatch(CYRILLIC);
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });

  it('control characters in the file name: dropped, the upload accepted', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(() => sendFile(user, 'port\u0007fo\u001blio.csv', `VIN\r\n${VIN_A}\r\n`));
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json.fileName).toBe('portfolio.csv');
  });

  it('an unterminated quote: the rest of the file is one cell, that row refused with a reason', async () => {
    const user = await createSignedInUser(app);
    const { id, detail } = await responsive(async () =>
      acceptAndValidate(user, 'quote.csv', await corpus('unterminated-quote.csv')),
    );
    expect(detail).toMatchObject({ status: 'validated', counts: { rows: 1, accepted: 1, rejected: 0 } });
    expect(await errorRows(user, id)).toEqual([]);
  });

  it('a Windows-1251 CSV is read as such (the wrong encoding for UTF-8 readers)', async () => {
    const user = await createSignedInUser(app);
    const { id, detail } = await responsive(async () =>
      acceptAndValidate(user, 'cp1251.csv', await corpus('windows-1251.csv')),
    );
    expect(detail).toMatchObject({ encoding: 'windows-1251', counts: { accepted: 1 } });
    await confirmAndImport(user, id);
    const { rows } = await app.db.query(
      'SELECT label, pledgor_name FROM monitoring_items WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(rows).toEqual([{ label: 'Лада белая', pledgor_name: 'Иванов Иван Иванович' }]);
  });

  it('formula cells (CSV text and XLSX formulas) are stored as text or their value, never evaluated', async () => {
    const user = await createSignedInUser(app);
    const csv = await responsive(async () => acceptAndValidate(user, 'f.csv', await corpus('formulas.csv')));
    await confirmAndImport(user, csv.id);
    const other = await createSignedInUser(app);
    const xlsx = await responsive(async () =>
      acceptAndValidate(other, 'f.xlsx', await corpus('formula-cells.xlsx')),
    );
    await confirmAndImport(other, xlsx.id);
    const { rows } = await app.db.query<{ identifier: string; label: string; contract_number: string }>(
      `SELECT identifier, label, contract_number FROM monitoring_items WHERE organisation_id = ANY($1)
        ORDER BY organisation_id = $2, identifier`,
      [[user.organisationId, other.organisationId], other.organisationId],
    );
    expect(rows).toEqual([
      {
        identifier: VIN_A,
        label: '=HYPERLINK("http://evil.test";"x")',
        contract_number: "+cmd|' /C calc'!A0",
      },
      { identifier: VIN_B, label: "@SUM(1+1)*cmd|' /C calc'!A0", contract_number: '-2+3' },
      { identifier: VIN_A, label: '7', contract_number: null },
    ]);
  });

  it('HTML and script in every text column: stored verbatim, returned as JSON data', async () => {
    const user = await createSignedInUser(app);
    const { id } = await responsive(async () =>
      acceptAndValidate(user, 'x.csv', await corpus('html-script.csv')),
    );
    await confirmAndImport(user, id);
    const list = await call('GET', '/api/v1/monitoring/items?page=1&pageSize=10', user);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.json.items).toEqual([
      expect.objectContaining({
        label: '<script>alert(1)</script>',
        contractNumber: '<img src=x onerror=alert(2)>',
        pledgorName: '<b onmouseover="alert(3)">Иванов</b>',
      }),
    ]);
  });

  it('pledge events (same reader): a 2 MB cell and a NUL in a cell refuse their rows, nothing registered', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    const file = [
      EVENT_HEADER.join(';'),
      eventRow(VIN_A, 'Ё'.repeat(2 * 1024 * 1024)),
      eventRow(VIN_B, 'Kia\0Rio'),
    ].join('\r\n');
    const { id, detail } = await responsive(() => acceptAndValidate(user, 'events.csv', file, EVENTS_UPLOAD));
    expect(detail).toMatchObject({ kind: 'pledge_events', counts: { rows: 2, accepted: 0, rejected: 2 } });
    expect((await errorRows(user, id)).map((row) => row.message)).toEqual([
      'Значение в столбце «Описание ТС» длиннее 1000 символов',
      'Значение в столбце «Описание ТС» содержит недопустимый нулевой символ (NUL)',
    ]);
    expect(await written(user.organisationId)).toEqual(NOTHING);
  });
});

// ─── Requests ───────────────────────────────────────────────────────────────────────────────

const HTML = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describe('hostile requests', () => {
  it('HTML and script in the text fields of items by form: stored verbatim, returned as JSON', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(() =>
      call('POST', '/api/v1/monitoring/regular-check/form-vin', user, {
        rows: [{ vin: VIN_A, label: HTML, contractNumber: HTML.slice(0, 100), pledgorName: HTML }],
      }),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const { rows } = await app.db.query(
      'SELECT label, contract_number, pledgor_name FROM monitoring_items WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(rows).toEqual([{ label: HTML, contract_number: HTML.slice(0, 100), pledgor_name: HTML }]);
  });

  it('HTML in a notification rule name and in the user name: stored verbatim', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const rule = await responsive(() =>
      call('POST', '/api/v1/monitoring/notifications/settings', admin, {
        name: HTML,
        method: 'email',
        recipients: ['risk@bank.test'],
      }),
    );
    expect(rule.status, rule.text).toBe(201);
    expect(rule.json.name).toBe(HTML);
    const profile = await responsive(() => call('PATCH', '/api/v1/user/profile', admin, { fullName: HTML }));
    expect(profile.status, profile.text).toBe(200);
    expect(profile.json.fullName).toBe(HTML);
  });

  it('HTML in the text fields of a pledge event by form: stored verbatim', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const answer = await responsive(() =>
      call('POST', '/api/v1/pledges/events', admin, {
        kind: 'creation',
        notificationDate: '2025-01-15',
        pledgor: {
          type: 'individual',
          lastName: '<b>Иванов</b>',
          firstName: '<i>Иван</i>',
          middleName: HTML.slice(0, 100),
          birthDate: '1980-02-01',
          documentType: 'passport_rf',
          documentNumber: '4506 123456',
        },
        pledgee: { type: 'company', name: HTML, inn: '7707083893', ogrn: '1027700132195' },
        contract: {
          name: HTML.slice(0, 200),
          number: '<u>ДЗ-1</u>',
          date: '2025-01-15',
          endDate: '2030-01-15',
        },
        vehicles: [{ vin: VIN_A, description: HTML }],
      }),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json.event).toMatchObject({
      pledgor: { lastName: '<b>Иванов</b>' },
      pledgee: { name: HTML },
      contract: { number: '<u>ДЗ-1</u>' },
    });
  });

  const overLong: [string, string, string, unknown, string][] = [
    [
      'items by form: a label over the guard',
      'POST',
      '/api/v1/monitoring/regular-check/form-vin',
      { rows: [{ vin: VIN_A, label: 'м'.repeat(5001) }] },
      'Максимальная длина — 5000 симв.',
    ],
    [
      'notification rule: a name of 10 000 characters',
      'POST',
      '/api/v1/monitoring/notifications/settings',
      { name: 'и'.repeat(10_000), method: 'email', recipients: ['risk@bank.test'] },
      'Максимальная длина',
    ],
    [
      'user name of 10 000 characters',
      'PATCH',
      '/api/v1/user/profile',
      { fullName: 'я'.repeat(10_000) },
      'Максимальная длина — 200 симв.',
    ],
    [
      'wrong JSON types: rows is a string',
      'POST',
      '/api/v1/monitoring/regular-check/form-vin',
      { rows: 'XTA' },
      '',
    ],
    [
      'wrong JSON types: vin is a number',
      'POST',
      '/api/v1/monitoring/regular-check/form-vin',
      { rows: [{ vin: 12345 }] },
      '',
    ],
    [
      'wrong JSON types: fullName is an object',
      'PATCH',
      '/api/v1/user/profile',
      { fullName: { $ne: 1 } },
      '',
    ],
    ['missing fields: no rows', 'POST', '/api/v1/monitoring/regular-check/form-vin', {}, ''],
    [
      'missing fields: a rule without a method',
      'POST',
      '/api/v1/monitoring/notifications/settings',
      { name: 'Правило' },
      '',
    ],
    [
      'wrong JSON types: the body is an array',
      'POST',
      '/api/v1/monitoring/notifications/settings',
      [1, 2],
      '',
    ],
  ];
  for (const [title, method, url, body, message] of overLong) {
    it(`${title} → 422 with a Russian message, nothing written`, async () => {
      const admin = await createSignedInUser(app, { role: 'admin' });
      const answer = await responsive(() => call(method, url, admin, body));
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json.code).toBe('VALIDATION_FAILED');
      const messages = [
        answer.json.message,
        ...((answer.json.fieldErrors as { message: string }[]) ?? []).map((e) => e.message),
      ];
      expect(messages.every((text) => CYRILLIC.test(text ?? ''))).toBe(true);
      expect(messages.join(' | ')).toContain(message);
      expect(await written(admin.organisationId)).toEqual(NOTHING);
      const { rows } = await app.db.query('SELECT full_name FROM users WHERE id = $1', [admin.id]);
      expect(rows).toEqual([{ full_name: 'Тестовый Пользователь' }]);
    });
  }

  it('unknown fields are ignored (zod strips them), the known ones applied', async () => {
    const user = await createSignedInUser(app);
    const answer = await responsive(() =>
      call('PATCH', '/api/v1/user/profile', user, {
        fullName: 'Пётр',
        role: 'admin',
        isStaff: true,
        organisationId: 'x',
      }),
    );
    expect(answer.status, answer.text).toBe(200);
    const { rows } = await app.db.query('SELECT full_name, role, is_staff FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([{ full_name: 'Пётр', role: 'analyst', is_staff: false }]);
  });

  it('malformed JSON and a wrong content type → 400 / 415 with a Russian message', async () => {
    const user = await createSignedInUser(app);
    const broken = await responsive(() =>
      call('PATCH', '/api/v1/user/profile', user, '{"fullName": "Пётр"', {
        'content-type': 'application/json',
      }),
    );
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ code: 'BAD_REQUEST', message: 'Некорректный запрос' });
    const xml = await responsive(() =>
      call('PATCH', '/api/v1/user/profile', user, '<fullName>Пётр</fullName>', {
        'content-type': 'application/xml',
      }),
    );
    expect(xml.status).toBe(415);
    expect(xml.json.message).toMatch(CYRILLIC);
    const { rows } = await app.db.query('SELECT full_name FROM users WHERE id = $1', [user.id]);
    expect(rows).toEqual([{ full_name: 'Тестовый Пользователь' }]);
  });

  // The INVALID_CHARACTERS rule at the HTTP edge (plugins/input-guard.ts): a NUL in a JSON, form or
  // query field is answered 422 before any handler sees it.
  const nulCases: [string, string, string, unknown][] = [
    [
      'a NUL in an item label (JSON)',
      'POST',
      '/api/v1/monitoring/regular-check/form-vin',
      { rows: [{ vin: VIN_A, label: 'a\u0000b' }] },
    ],
    ['a NUL in the user name (JSON)', 'PATCH', '/api/v1/user/profile', { fullName: 'Пётр\u0000' }],
    [
      'a NUL in a notification rule name (JSON)',
      'POST',
      '/api/v1/monitoring/notifications/settings',
      { name: '\u0000', method: 'email', recipients: ['risk@bank.test'] },
    ],
    ['a NUL in a query parameter', 'GET', '/api/v1/monitoring/items?search=a%00b', undefined],
  ];
  for (const [title, method, url, body] of nulCases) {
    it(`${title} → 422 INVALID_CHARACTERS (one rule at the HTTP edge)`, async () => {
      const user = await createSignedInUser(app, { role: 'admin' });
      const answer = await responsive(() => call(method, url, user, body));
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json.code).toBe('INVALID_CHARACTERS');
      expect(answer.json.message).toMatch(CYRILLIC);
      expect(await written(user.organisationId)).toEqual(NOTHING);
    });
  }
});
