import type { HealthPart } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { isConnectionError } from '../../db/pool.ts';
import { findPendingMigrations } from './health.queries.ts';

export type HealthFailure = { field: HealthPart; message: string };

const UNDEFINED_TABLE = '42P01';

/** How long the database may take to answer before readiness calls it unreachable. */
export const READY_DATABASE_TIMEOUT_MS = 2_000;

/**
 * The parts that keep this process from serving: the database (reachable within the timeout), the
 * migrations (every one this code ships applied) and the job queue (started, not stopped). One query.
 */
export async function checkReadiness(options: {
  db: Queryable;
  /** Every migration version this code ships (db/migrate.ts `migrationVersions`). */
  migrations: string[];
  jobsRunning: boolean;
  timeoutMs?: number;
}): Promise<HealthFailure[]> {
  const failures: HealthFailure[] = [];
  const timeoutMs = options.timeoutMs ?? READY_DATABASE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const pending = await Promise.race([findPendingMigrations(options.db, options.migrations), timeout]);
    if (pending === 'timeout') {
      failures.push({ field: 'database', message: `База данных не ответила за ${timeoutMs / 1000} с` });
    } else if (pending.length > 0) {
      failures.push({
        field: 'migrations',
        message: `Не применены миграции: ${pending.join(', ')}. Запустите npm run migrate или перезапустите приложение`,
      });
    }
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) {
      failures.push({ field: 'migrations', message: 'Миграции ещё не применялись' });
    } else {
      failures.push({
        field: 'database',
        message: isConnectionError(error) ? 'Нет связи с базой данных' : 'База данных отвечает ошибкой',
      });
    }
  } finally {
    clearTimeout(timer);
  }
  if (!options.jobsRunning) {
    failures.push({ field: 'jobs', message: 'Очередь фоновых задач не запущена' });
  }
  return failures;
}
