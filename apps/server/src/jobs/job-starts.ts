import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * The advisory-lock class every job process holds one lock of, keyed by its process_key: a start
 * whose lock is gone belongs to a process that ended (PostgreSQL drops a session's locks when its
 * connection closes, at once for a killed process on this machine).
 */
export const JOB_PROCESS_LOCK_CLASS = 270_045;
/** Earlier starts that ended their process after which a job is quarantined, not run again. */
export const QUARANTINE_AFTER_DEATHS = 2;
/** Finished starts are kept this long (operators, the fault suite's retry counts), then pruned. */
const KEEP_FINISHED = '1 day';
/** Unfinished starts of processes long gone (their jobs out of retries) are pruned after this. */
const KEEP_UNFINISHED = '30 days';
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export type JobOutcome = 'done' | 'failed' | 'stopped' | 'quarantined';

/** For a process that consumes no jobs through a database (unit tests of the consumer options). */
export const NO_JOB_STARTS: JobStarts = {
  begin: async () => ({ startId: '', deadEarlier: 0 }),
  finish: async () => {},
  close: async () => {},
};

export interface JobStarts {
  /**
   * Records this process's start of a job; answers how many earlier starts of it never finished
   * while their process is gone (the runs that ended their process).
   */
  begin(queue: string, jobId: string): Promise<{ startId: string; deadEarlier: number }>;
  finish(startId: string, outcome: JobOutcome): Promise<void>;
  /**
   * Marks this process's unfinished starts 'stopped' (a graceful shutdown releases them for a retry:
   * not a death) and lets go of the lock.
   */
  close(): Promise<void>;
}

/**
 * Holds this process's liveness lock on a connection of its own (reopened if it drops) and records
 * job starts through `db`.
 */
export async function openJobStarts(db: pg.Pool, log: FastifyBaseLogger): Promise<JobStarts> {
  const processKey = 1 + Math.floor(Math.random() * 0x7ffffffe);
  const processLabel = `${os.hostname()}:${process.pid}`;
  let holder: pg.Client | null = null;
  let closed = false;

  const hold = async () => {
    const { connectionString, host, port, user, password, database } = db.options;
    const client = new pg.Client({
      connectionString,
      host,
      port,
      user,
      password,
      database,
      application_name: 'pledgewatch-job-liveness',
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'job liveness connection lost; reopening');
      holder = null;
      client.end().catch(() => {});
      if (!closed) {
        setTimeout(
          () => void hold().catch((err: unknown) => log.error({ err }, 'job liveness lock not taken')),
          1000,
        ).unref();
      }
    });
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, $2)', [JOB_PROCESS_LOCK_CLASS, processKey]);
    holder = client;
  };
  await hold();

  const prune = () =>
    db
      .query(
        `DELETE FROM job_starts
          WHERE (finished_at IS NOT NULL AND finished_at < now() - $1::interval)
             OR started_at < now() - $2::interval`,
        [KEEP_FINISHED, KEEP_UNFINISHED],
      )
      .catch((error: unknown) => log.warn({ err: error }, 'job starts not pruned'));
  await prune();
  const pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  pruneTimer.unref();

  return {
    async begin(queue, jobId) {
      const { rows } = await db.query<{ id: string; dead: number }>(
        `WITH started AS (
           INSERT INTO job_starts (queue, job_id, process_key, process_label)
           VALUES ($1, $2, $3, $4) RETURNING id
         )
         SELECT (SELECT id FROM started)::text AS id,
                (SELECT count(*)::int FROM job_starts s
                  WHERE s.job_id = $2 AND s.finished_at IS NULL
                    AND NOT EXISTS (
                      SELECT 1 FROM pg_locks l
                       WHERE l.locktype = 'advisory' AND l.granted
                         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                         AND l.classid = $5::bigint::oid AND l.objid = s.process_key::bigint::oid
                         AND l.objsubid = 2)) AS dead`,
        [queue, jobId, processKey, processLabel, JOB_PROCESS_LOCK_CLASS],
      );
      return { startId: rows[0]!.id, deadEarlier: rows[0]!.dead };
    },
    async finish(startId, outcome) {
      await db.query('UPDATE job_starts SET finished_at = now(), outcome = $2 WHERE id = $1', [
        startId,
        outcome,
      ]);
    },
    async close() {
      closed = true;
      clearInterval(pruneTimer);
      await db
        .query(
          `UPDATE job_starts SET finished_at = now(), outcome = 'stopped'
            WHERE process_key = $1 AND finished_at IS NULL`,
          [processKey],
        )
        .catch((error: unknown) => log.warn({ err: error }, 'job starts not released'));
      await holder?.end().catch(() => {});
      holder = null;
    },
  };
}
