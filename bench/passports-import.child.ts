/**
 * Runs one import of the MVD list through the real job path (queued as the API queues it, then the
 * job's runSourceImport) in its own process, so the parent can report this process's peak RSS.
 * Its connections and its decompression run at the job's OS priority (JOBS_DB_NICE's default), as
 * in the app and the workers. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { jobBackendPriority } from '../apps/server/src/db/backend-priority.ts';
import { createPool } from '../apps/server/src/db/pool.ts';
import type { JobQueue } from '../apps/server/src/jobs/job-definition.ts';
import {
  queueListImport,
  runSourceImport,
} from '../apps/server/src/modules/checks/passport-list/passport-list.service.ts';

const [databaseUrl, filePath] = process.argv.slice(2) as [string, string];
const nice = Number(process.env.JOBS_DB_NICE ?? 10);
const db = createPool(databaseUrl, 3, 'pledgewatch-jobs', {
  onConnect: jobBackendPriority(nice, { info: () => {} }),
});
// The job is run in-process below; the queue only has to accept the send.
const queue = { send: async () => null } as unknown as JobQueue;
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
const t0 = performance.now();
const phases: Record<string, number> = {};
// The same moments on the wall clock, for the parent's lookups (which phase each one fell in).
const phasesAt: Record<string, number> = { start: Date.now() };
// The parent probes from the import's start to its switch (the module loading above is not the
// import's; the old version's drop after the switch is a job of its own, 30 s later there).
process.send?.({ phase: 'start' });
const importId = await queueListImport(db, queue, {
  importId: randomUUID(),
  filePath,
  fileName: 'list_of_expired_passports.csv.bz2',
  bytes: 0,
  createdBy: null,
});
await runSourceImport({
  db,
  config: { uploadMaxUnzippedBytes: 64 * 1024 ** 3, jobsDbNice: nice },
  importId,
  lastAttempt: true,
  onPhase: (phase) => {
    phases[phase] = Math.round(performance.now() - t0);
    phasesAt[phase] = Date.now();
    process.send?.({ phase });
  },
});
const totalMs = performance.now() - t0;
clearInterval(sampler);
const { rows } = await db.query(
  'SELECT status, records_total, rows_rejected, failure, storage_table FROM source_imports WHERE id = $1',
  [importId],
);
await db.end();
process.disconnect?.();
console.log(
  JSON.stringify({
    phases,
    phasesAt: { ...phasesAt, end: Date.now() },
    totalMs,
    peakRss: Math.max(peak, process.resourceUsage().maxRSS * 1024),
    import: rows[0],
  }),
);
