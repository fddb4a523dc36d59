import { describe, expect, it } from 'vitest';
import { WORKER_CHECK_BATCH_CONCURRENCY } from '../modules/checks/jobs/check-batch.job.ts';
import { randomVin } from '../modules/checks/testing/checks-test-helpers.ts';
import { VALIDATE_QUARANTINED_MESSAGE } from '../modules/uploads/upload-pipeline.ts';
import {
  addVinItems,
  importDataset,
  type NodeProcess,
  report,
  runToEnd,
  seedOrganisation,
  sleep,
  useWorkerRig,
  waitFor,
} from '../testing/fault-harness.ts';

/**
 * Jobs whose runs end their process: a job killed twice mid-run is quarantined (never run a third
 * time, its upload failed with a reason the user sees), and of two workers the one killed costs its
 * own jobs only — the survivor's are not retried.
 */
const BATCH_SIZE = 1500;
const BATCHES = 11;
const UPLOAD_ROWS = 100_000;

const rig = useWorkerRig('faults_job_deaths', BATCH_SIZE);

interface Start {
  job_id: string;
  process_label: string;
  outcome: string | null;
}

async function startsOf(jobIds: string[]): Promise<Start[]> {
  const { rows } = await rig.db.query<Start>(
    'SELECT job_id, process_label, outcome FROM job_starts WHERE job_id = ANY($1) ORDER BY id',
    [jobIds],
  );
  return rows;
}

const pidOf = (worker: NodeProcess) => worker.child.pid!;
const labelPid = (label: string) => Number(label.slice(label.lastIndexOf(':') + 1));

describe('jobs whose runs end their process', () => {
  it('an upload validation killed twice is quarantined: failed with the reason in the history, never run again', async () => {
    const org = await seedOrganisation(rig.url, [{ role: 'analyst' }]);
    const api = await rig.client(org.users[0]!.email, org.users[0]!.password);
    const vins = Array.from({ length: UPLOAD_ROWS }, () => randomVin('XWB'));
    const created = await api.upload('/monitoring/uploads', 'crash-loop.csv', `VIN\n${vins.join('\n')}\n`);
    expect(created.status, created.text).toBe(202);
    const uploadId = (created.body as { id: string }).id;
    const jobId = async () =>
      (
        await rig.db.query<{ id: string }>(
          `SELECT id FROM pgboss.job WHERE name = 'uploads.validate' AND data->>'uploadId' = $1`,
          [uploadId],
        )
      ).rows[0]?.id;

    // Two runs, each killed (as an out-of-memory exit would end it) while it validates.
    for (const death of [1, 2]) {
      const worker = rig.startWorker();
      const id = await waitFor(
        `validation run ${death} to be under way`,
        async () => {
          const job = await jobId();
          const starts = job ? await startsOf([job]) : [];
          const running = starts.find(
            (start) => start.outcome === null && labelPid(start.process_label) === pidOf(worker),
          );
          return running ? job : undefined;
        },
        120_000,
        20,
      );
      await worker.kill('SIGKILL');
      report(`crash loop: validation run ${death} of job ${id} killed with its process`);
    }
    const t0 = Date.now();
    const worker = rig.startWorker();
    const failed = await waitFor(
      'the upload to be quarantined',
      async () => {
        const response = await api.get(`/monitoring/uploads/${uploadId}`);
        const body = response.body as { status: string; errorMessage: string | null };
        return body.status === 'failed' ? body : undefined;
      },
      180_000,
      500,
    );
    expect(failed.errorMessage).toBe(VALIDATE_QUARANTINED_MESSAGE);
    // The history (what the uploads screen lists) shows it with the reason.
    const history = (await api.get('/monitoring/uploads?page=1&pageSize=20')).body as {
      items: { id: string; status: string; errorMessage: string | null }[];
    };
    expect(history.items.find((item) => item.id === uploadId)).toMatchObject({
      status: 'failed',
      errorMessage: VALIDATE_QUARANTINED_MESSAGE,
    });
    const id = (await jobId())!;
    // Settled for the queue, and not run again however long one waits (a retry came every ~20 s).
    await sleep(25_000);
    const starts = await startsOf([id]);
    expect(starts.map((start) => start.outcome)).toEqual([null, null, 'quarantined']);
    const job = await rig.db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id]);
    expect(job.rows[0]!.state).toBe('completed');
    const items = await rig.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1',
      [org.organisationId],
    );
    expect(items.rows[0]!.n).toBe(0);
    const staged = await rig.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
      [uploadId],
    );
    expect(staged.rows[0]!.n).toBe(0);
    await worker.kill('SIGTERM');
    report(
      `crash loop: the third run quarantined the job ${Date.now() - t0} ms after the second death; upload failed with the Russian reason, no fourth run`,
    );
  });

  it('two workers, one killed mid-run: only the dead worker’s batches run again', async () => {
    const staff = await seedOrganisation(rig.url, [{ role: 'admin', isStaff: true }]);
    const org = await seedOrganisation(rig.url, [{ role: 'analyst' }]);
    const staffApi = await rig.client(staff.users[0]!.email, staff.users[0]!.password);
    const vins = Array.from({ length: BATCH_SIZE * BATCHES }, () => randomVin());
    const datasets: [string, Record<string, unknown>[]][] = [
      [
        'pledges',
        vins
          .filter((_, i) => i % 3 === 0)
          .map((vin, i) => ({
            vin,
            notice_number: `N${i}`,
            status: 'active',
            registered_at: '2025-01-01',
            pledgee: 'Банк',
          })),
      ],
      [
        'wanted',
        vins
          .filter((_, i) => i % 5 === 0)
          .map((vin, i) => ({ vin, record_id: `W${i}`, since: '2025-01-01' })),
      ],
      ['accidents', [{ vin: randomVin(), record_id: 'A0', date: '2025-01-01' }]],
      ['restrictions', [{ vin: randomVin(), record_id: 'R0', kind: 'Запрет', imposed_at: '2020-01-01' }]],
      [
        'registration',
        [{ vin: randomVin(), record_id: 'G0', operation: 'Первичная регистрация', date: '2020-01-01' }],
      ],
      [
        'bankruptcy',
        [
          {
            document_type: 'inn',
            document_number: '7707083893',
            status: 'open',
            opened_at: '2020-01-01',
            case_number: 'B0',
          },
        ],
      ],
      [
        'enforcement',
        [
          {
            document_type: 'inn',
            document_number: '7707083893',
            status: 'open',
            opened_at: '2020-01-01',
            proceeding_number: 'E0',
          },
        ],
      ],
    ];
    for (const [type, records] of datasets) {
      await importDataset(staffApi, type, records);
    }
    // The MVD list is imported in the background (202), as every dataset is: settled below.
    const passportList = await staffApi.upload(
      '/monitoring/sources/passport/imports',
      'list_of_expired_passports.csv',
      'PASSP_SERIES,PASSP_NUMBER\n4500,123456\n',
    );
    expect(passportList.status, passportList.text).toBe(202);
    await rig.importsSettled();
    await addVinItems(rig.db, org.organisationId, vins);
    const api = await rig.client(org.users[0]!.email, org.users[0]!.password);
    const workers = [rig.startWorker(), rig.startWorker()];
    const started = await api.post('/monitoring/check-runs');
    expect(started.status, started.text).toBe(202);
    const runId = (started.body as { id: string }).id;
    const batchJobs = async () =>
      (
        await rig.db.query<{ id: string; state: string; retry_count: number; output: unknown }>(
          `SELECT id, state, retry_count, output FROM pgboss.job
            WHERE name = 'checks.batch' AND data->>'runId' = $1 ORDER BY (data->>'batchNo')::int`,
          [runId],
        )
      ).rows;

    // Both workers have a batch under way: the kill then has a survivor with work of its own.
    const atKill = await waitFor(
      'both workers to run a batch',
      async () => {
        const jobs = await batchJobs();
        const running = (await startsOf(jobs.map((job) => job.id))).filter((start) => start.outcome === null);
        const pids = new Set(running.map((start) => labelPid(start.process_label)));
        return workers.every((worker) => pids.has(pidOf(worker))) ? running : undefined;
      },
      180_000,
      20,
    );
    const [killed, survivor] = workers as [NodeProcess, NodeProcess];
    await killed.kill('SIGKILL');
    const killedPid = pidOf(killed);
    const survivorPid = pidOf(survivor);
    const killedRunning = atKill.filter((start) => labelPid(start.process_label) === killedPid).length;
    report(
      `two workers: one killed with ${killedRunning} batch(es) running, the survivor running ${atKill.length - killedRunning}`,
    );

    const final = await runToEnd(api, runId, 300_000);
    await survivor.kill('SIGTERM');
    expect(final).toMatchObject({ status: 'completed', batchesDone: BATCHES, batchesTotal: BATCHES });

    const jobs = await batchJobs();
    expect(jobs).toHaveLength(BATCHES);
    const starts = await startsOf(jobs.map((job) => job.id));
    const lines = jobs.map((job) => {
      const own = starts.filter((start) => start.job_id === job.id);
      return `retries ${job.retry_count} [${own
        .map(
          (start) =>
            `${labelPid(start.process_label) === killedPid ? 'killed' : 'survivor'}:${start.outcome ?? 'died'}`,
        )
        .join(', ')}]${job.retry_count > 0 ? ` ${JSON.stringify(job.output)}` : ''}`;
    });
    const retried = jobs.filter((job) => job.retry_count > 0);
    report(`two workers: ${retried.length} of ${BATCHES} batches retried; ${lines.join('; ')}`);
    const survivorsAtKill = new Set(
      atKill.filter((start) => labelPid(start.process_label) === survivorPid).map((start) => start.job_id),
    );
    for (const job of jobs) {
      const own = starts.filter((start) => start.job_id === job.id);
      // Every run but the last died with the killed worker: no run of the survivor's was redone.
      expect(own.slice(0, -1).every((start) => labelPid(start.process_label) === killedPid)).toBe(true);
      expect(own.at(-1)?.outcome).toBe('done');
      // A retried batch was the killed worker's: begun there, or fetched there in the instant before
      // its start was recorded (pg-boss's fetch and the start record are two transactions). Either
      // way the survivor ran it once, after the kill.
      if (job.retry_count > 0 && own[0] && labelPid(own[0].process_label) !== killedPid) {
        expect(own).toHaveLength(1);
        expect(survivorsAtKill.has(job.id)).toBe(false);
      }
      if (survivorsAtKill.has(job.id)) {
        expect(job.retry_count).toBe(0);
        expect(own).toHaveLength(1);
      }
    }
    // Retried: the batches the killed worker held, no more; each of its loops holds one at a time.
    expect(retried.length).toBeLessThanOrEqual(WORKER_CHECK_BATCH_CONCURRENCY);
    expect(retried.length).toBeGreaterThanOrEqual(killedRunning);
  });
});
