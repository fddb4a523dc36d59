import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type pg from 'pg';

/**
 * Runs the job pool's PostgreSQL backends at a lower OS priority (nice), when the database server
 * runs on this host: a regular run's batches and an upload's import are the machine's heavy work,
 * and on a small machine they otherwise take the cores from the API's requests (the load benchmark:
 * p99 of the main screens' calls during a run and an upload, see docs/performance.md). The kernel
 * still gives them every cycle the API leaves idle.
 *
 * Only a backend this process can prove is local is touched: the connection comes over a Unix
 * socket or loopback, and the process with the backend's PID is a PostgreSQL process. Without the
 * right to renice another user's process (not root, no CAP_SYS_NICE) it gives up quietly.
 */
export function jobBackendPriority(
  nice: number,
  log: { info: (object: object, message: string) => void },
): ((client: pg.ClientBase) => Promise<void>) | undefined {
  if (nice <= 0) {
    return undefined;
  }
  let enabled = true;
  // The pool's onConnect hook: awaited before the pool hands the connection out, so its query never
  // runs beside a job's (pg 9 refuses a query on a busy client) and the job's first query already
  // runs at the lower priority.
  return async (client) => {
    if (!enabled) {
      return;
    }
    try {
      const { rows } = await client.query<{ pid: number; local: boolean }>(
        `SELECT pg_backend_pid() AS pid,
                coalesce(host(inet_server_addr()) IN ('127.0.0.1', '::1'), true) AS local`,
      );
      const backend = rows[0];
      if (!backend?.local || !isPostgresProcess(backend.pid)) {
        enabled = false;
        return;
      }
      setPriority(backend.pid, nice);
      // A parallel query's or index build's helper processes are started by the postmaster at its
      // priority, not the backend's: a niced connection that went parallel would put the API's
      // priority back on the job's work (a list version's primary key: one helper at nice 0 beside
      // the checks' lookups). The job's work stays in its one niced process.
      await client.query('SET max_parallel_workers_per_gather = 0; SET max_parallel_maintenance_workers = 0');
    } catch (error) {
      // EPERM: not ours to renice; ESRCH: gone; a query error: the connection is failing anyway,
      // and its first real query says so.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPERM' || code === 'EACCES') {
        enabled = false;
        log.info({ err: error }, 'job database connections keep their priority (no right to renice)');
      }
    }
  };
}

/** Whether the local process `pid` is a PostgreSQL server process (its name starts with postgres). */
export function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}
