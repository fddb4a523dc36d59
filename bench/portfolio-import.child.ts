/**
 * Runs one upload through the real pipeline (service + job handlers) in its own process, so the
 * parent can report this process's peak RSS. Prints one JSON line.
 */
import { createReadStream } from 'node:fs';
import { createPool } from '../apps/server/src/db/pool.ts';
import type { JobQueue } from '../apps/server/src/jobs/job-definition.ts';
import { findItems } from '../apps/server/src/modules/monitoring/monitoring.service.ts';
import {
  completeImport,
  importUpload,
  settleImport,
  validateUpload,
} from '../apps/server/src/modules/uploads/upload-pipeline.ts';
import { createUpload } from '../apps/server/src/modules/uploads/uploads.service.ts';

const [databaseUrl, organisationId, userId, filePath, dataDir] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const db = createPool(databaseUrl, 4);
const config = { dataDir, uploadMaxBytes: 1024 * 1024 * 1024, uploadMaxUnzippedBytes: 2 * 1024 ** 3 };
// Jobs are run in-process below; the queue only has to accept the sends.
const queue = { send: async () => null } as unknown as JobQueue;
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);

const auth = { organisationId, userId, sessionId: '', role: 'analyst' as const, isStaff: false };
const t0 = performance.now();
const upload = await createUpload({
  db,
  queue,
  config,
  auth,
  kind: 'items',
  autoConfirm: true,
  file: { fileName: 'million.csv', stream: createReadStream(filePath) },
});
const t1 = performance.now();
await validateUpload({ db, config }, upload.id, { lastAttempt: true });
const t2 = performance.now();
const imported = await importUpload({ db, config }, upload.id, { lastAttempt: true });
// What the user sees next: the items list with the new rows (its first page and total).
const list = await findItems({
  db,
  auth,
  entity: 'vin',
  page: 1,
  pageSize: 25,
  sort: 'createdAt',
  order: 'desc',
});
const t3 = performance.now();
// The deferred work (statistics label dictionary, search index merge), then a search for the file's
// last row.
if (imported) {
  await completeImport({ db, config }, imported);
  await settleImport({ db, config }, imported);
}
const t4 = performance.now();
const lastRow = Number(process.env.BENCH_PORTFOLIO_ROWS ?? 1_000_000) - 1;
const search = await findItems({
  db,
  auth,
  entity: 'vin',
  page: 1,
  pageSize: 25,
  sort: 'createdAt',
  order: 'desc',
  search: `КД-2025/${String(lastRow).padStart(7, '0')}`,
});
const searchMs = performance.now() - t4;
clearInterval(sampler);
const { rows } = await db.query(
  'SELECT status, rows_total, rows_accepted, rows_rejected FROM uploads WHERE id = $1',
  [upload.id],
);
await db.end();
console.log(
  JSON.stringify({
    receiveMs: t1 - t0,
    validateMs: t2 - t1,
    importMs: t3 - t2,
    totalMs: t3 - t0,
    searchReadyMs: t4 - t3,
    searchMs,
    searchHits: search.total,
    listTotal: list.total,
    peakRss: Math.max(peak, process.resourceUsage().maxRSS * 1024),
    upload: rows[0],
  }),
);
