import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { notifySourceHealth } from '../../notifications/index.ts';
import { listSources } from './sources.service.ts';

/**
 * Hands the sources' health — the same figures the source list shows — to the notification rules
 * that watch sources. Called by the minute job: a failure alert follows the failing batch within a
 * minute, a staleness alert the moment the data gets too old.
 */
export async function checkSourceAlerts(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: Pick<AppConfig, 'remoteSources' | 'appUrl'>;
  now?: Date;
}): Promise<number> {
  const { items } = await listSources({ db: options.db, config: options.config });
  return notifySourceHealth({
    db: options.db,
    queue: options.queue,
    appUrl: options.config.appUrl,
    now: options.now,
    sources: items.map((source) => ({
      type: source.type,
      name: source.name,
      consecutiveFailures: source.consecutiveFailures,
      lastError: source.lastError,
      lastRefreshAt: source.lastRefreshAt ? new Date(source.lastRefreshAt) : null,
    })),
  });
}
