import type { SourceImport } from '@pledgewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../../config/env.ts';
import { bearer } from '../../../testing/test-app.ts';
import { runSourceImport } from '../passport-list/passport-list.service.ts';
import { processCheckBatch } from '../runs/check-batch.service.ts';
import { listBatchNumbers } from '../runs/runs.queries.ts';
import { planCheckRun } from '../runs/runs.service.ts';

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
let serial = 0;

/** A VIN in the ISO 3779 alphabet, unique in this process (its check digit may be off: a warning only). */
export function randomVin(prefix = 'XTA'): string {
  let vin = prefix;
  const tail = (++serial).toString(36).toUpperCase().replace(/[IOQ]/g, 'Z');
  while (vin.length < 17 - tail.length) {
    vin += VIN_ALPHABET[Math.floor(Math.random() * VIN_ALPHABET.length)];
  }
  return (vin + tail).slice(0, 17);
}

/** A passport number (series and number, 10 digits), unique in this process. */
export const randomPassport = () =>
  String(4_500_000_000 + ++serial * 104_729 + Math.floor(Math.random() * 1000));

export async function addItems(
  app: FastifyInstance,
  organisationId: string,
  items: { kind: 'vin' | 'document'; documentType?: string; identifier: string; label?: string }[],
): Promise<string[]> {
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, label, origin)
     SELECT $1, x.kind, x.document_type, x.identifier, x.label, 'form'
       FROM jsonb_to_recordset($2::jsonb) AS x(kind text, document_type text, identifier text, label text, ord int)
      ORDER BY x.ord RETURNING id`,
    [
      organisationId,
      JSON.stringify(
        items.map((item, ord) => ({
          kind: item.kind,
          document_type: item.documentType ?? null,
          identifier: item.identifier,
          label: item.label ?? null,
          ord,
        })),
      ),
    ],
  );
  return rows.map((row) => row.id);
}

export function multipartFile(fileName: string, content: string | Uint8Array) {
  const boundary = `----pledgewatch${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Text in Windows-1251 (every character of the text must exist there). */
export function encodeCp1251(text: string): Uint8Array {
  const decoder = new TextDecoder('windows-1251');
  const table = new Map<string, number>();
  for (let byte = 0; byte <= 0xff; byte++) {
    table.set(decoder.decode(Uint8Array.of(byte)), byte);
  }
  return Uint8Array.from([...text].map((char) => table.get(char)!));
}

/** The MVD list as published, uncompressed: `PASSP_SERIES,PASSP_NUMBER` and one row per passport. */
export const passportListCsv = (passports: readonly string[]) =>
  `PASSP_SERIES,PASSP_NUMBER\n${passports.map((p) => `${p.slice(0, 4)},${p.slice(4)}\n`).join('')}`;

/**
 * Uploads a source's file through the API (staff token; 202, imported in the background) and runs
 * its queued import in this process, as the job would; returns the version as the history lists it
 * (`active`, or `failed` with its reason).
 */
export async function importSourceFile(
  app: FastifyInstance,
  token: string,
  type: string,
  fileName: string,
  content: string | Uint8Array,
) {
  const file = multipartFile(fileName, content);
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/monitoring/sources/${type}/imports`,
    payload: file.payload,
    headers: { ...file.headers, ...bearer(token) },
  });
  if (response.statusCode !== 202) {
    throw new Error(`import ${type} failed: ${response.statusCode} ${response.body}`);
  }
  const queued = response.json<{ id: string; status: string }>();
  if (queued.status !== 'importing') {
    throw new Error(`import ${type} answered ${queued.status}, not importing`);
  }
  await runSourceImport({
    db: app.db,
    config: { uploadMaxUnzippedBytes: 2 ** 31 },
    importId: queued.id,
    lastAttempt: true,
  });
  const history = await app.inject({
    method: 'GET',
    url: `/api/v1/monitoring/sources/${type}/imports?pageSize=200`,
    headers: bearer(token),
  });
  return history.json<{ items: SourceImport[] }>().items.find((item) => item.id === queued.id)!;
}

/** The MVD list through the API, imported as the job would (importSourceFile). */
export const importPassportList = (
  app: FastifyInstance,
  token: string,
  content: string | Uint8Array,
  fileName = 'list_of_expired_passports.csv',
) => importSourceFile(app, token, 'passport', fileName, content);

/**
 * Uploads a dataset as JSON through the API (staff token) and imports it as the job would.
 * `passport` records (`document_number`) go in as the MVD list.
 */
export async function importRecords(
  app: FastifyInstance,
  token: string,
  type: string,
  records: Record<string, unknown>[],
) {
  if (type === 'passport') {
    return importPassportList(app, token, passportListCsv(records.map((r) => String(r.document_number))));
  }
  const created = await importSourceFile(app, token, type, `${type}.json`, JSON.stringify(records));
  if (created.status !== 'active') {
    throw new Error(`import ${type} ${created.status}: ${created.failure}`);
  }
  return created;
}

/** Starts a run through the API and plans it into its batches (their jobs are left to the caller). */
export async function startPlannedRun(
  app: FastifyInstance,
  config: AppConfig,
  token: string,
): Promise<{ runId: string; batchNos: number[] }> {
  const started = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/check-runs',
    headers: bearer(token),
  });
  if (started.statusCode !== 202) {
    throw new Error(`run failed to start: ${started.statusCode} ${started.body}`);
  }
  const runId = started.json<{ id: string }>().id;
  await planCheckRun({ db: app.db, queue: app.queue, config, runId });
  return { runId, batchNos: await listBatchNumbers(app.db, runId) };
}

/** Starts a run through the API and executes its jobs in this process, one after another. */
export async function runChecksNow(app: FastifyInstance, config: AppConfig, token: string) {
  const { runId, batchNos } = await startPlannedRun(app, config, token);
  for (const batchNo of batchNos) {
    await processCheckBatch({ db: app.db, config, queue: app.queue, runId, batchNo, lastAttempt: true });
  }
  const run = await app.inject({
    method: 'GET',
    url: `/api/v1/monitoring/check-runs/${runId}`,
    headers: bearer(token),
  });
  return run.json();
}

/**
 * A failure-alert rule on one source for the admin's organisation (threshold 1: the first failure
 * alerts); returns the kinds of its deliveries so far, oldest first ('failure', 'recovered').
 */
export async function watchSourceFailures(
  app: FastifyInstance,
  adminToken: string,
  sourceType: string,
): Promise<() => Promise<string[]>> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/notifications/settings',
    headers: bearer(adminToken),
    payload: {
      name: 'Источники',
      method: 'email',
      recipients: ['ops@bank.test'],
      subject: 'source_failure',
      sourceType,
      failureThreshold: 1,
    },
  });
  const { id } = response.json<{ id: string }>();
  return async () =>
    (
      await app.db.query<{ kind: string }>(
        `SELECT payload->>'kind' AS kind FROM notification_deliveries WHERE rule_id = $1 ORDER BY created_at, id`,
        [id],
      )
    ).rows.map((row) => row.kind);
}
