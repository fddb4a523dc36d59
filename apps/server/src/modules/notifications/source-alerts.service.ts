import type { SourceAlert, SourceAlertKind, SourceType } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { insertDeliveries, listSourceRules, type RuleRow } from './notifications.queries.ts';
import { deliveriesFor, enqueueDeliveries } from './notifications.service.ts';
import {
  lockRule,
  lockSourceAlertStates,
  type SourceAlertStateKind,
  saveSourceAlertState,
} from './source-alerts.queries.ts';

/** A source's health as the checks module sees it (the same figures as the source list). */
export interface SourceHealth {
  type: SourceType;
  name: string;
  consecutiveFailures: number;
  lastError: string | null;
  /** Last successful refresh: a dataset's active import, a remote source's last good answer. */
  lastRefreshAt: Date | null;
}

interface Verdict {
  /** The alert condition holds now. */
  bad: boolean;
  /** The source is fine again: an open episode closes. */
  good: boolean;
}

/**
 * Failures: the alert fires when the failures in a row reach the threshold and the episode closes
 * only on a good answer (0 in a row), so a source that flaps around the threshold is one episode.
 * Staleness: a source never refreshed counts only for a rule that names it (an unused source of an
 * «any source» rule would alert forever).
 */
function verdictOf(rule: RuleRow, kind: SourceAlertStateKind, source: SourceHealth, now: Date): Verdict {
  if (kind === 'failure') {
    return {
      bad: source.consecutiveFailures >= rule.failure_threshold,
      good: source.consecutiveFailures === 0,
    };
  }
  const bad = source.lastRefreshAt
    ? now.getTime() - source.lastRefreshAt.getTime() > rule.stale_hours * 3_600_000
    : rule.source_type !== null;
  return { bad, good: !bad };
}

function alertOf(
  rule: RuleRow,
  kind: SourceAlertKind,
  source: SourceHealth,
  now: Date,
  appUrl: string,
): SourceAlert {
  return {
    kind,
    sourceType: source.type,
    sourceName: source.name,
    consecutiveFailures: source.consecutiveFailures,
    failureThreshold: rule.subject === 'source_failure' ? rule.failure_threshold : null,
    lastError: source.lastError,
    lastRefreshAt: source.lastRefreshAt?.toISOString() ?? null,
    staleHours: rule.subject === 'source_stale' ? rule.stale_hours : null,
    detectedAt: now.toISOString(),
    url: `${appUrl}/monitoring/sources`,
  };
}

/**
 * Compares every enabled source rule (of every organisation: sources are shared) with the sources'
 * health and sends one alert when an episode starts — failures in a row reach the threshold, or
 * the data gets older than the rule allows — and, if the rule asks, one message when it ends. The
 * episode state and its deliveries are written in one transaction per rule, and the delivery keys
 * carry the episode number: running this twice, or in two workers at once, sends nothing twice.
 */
export async function notifySourceHealth(options: {
  db: pg.Pool;
  queue: JobQueue;
  sources: SourceHealth[];
  appUrl: string;
  now?: Date;
}): Promise<number> {
  const now = options.now ?? new Date();
  let created = 0;
  for (const rule of await listSourceRules(options.db)) {
    const kind: SourceAlertStateKind = rule.subject === 'source_failure' ? 'failure' : 'stale';
    const watched = options.sources.filter(
      (source) => rule.source_type === null || source.type === rule.source_type,
    );
    created += await withTransaction(options.db, async (tx) => {
      if (!(await lockRule(tx, rule.id))) {
        return 0;
      }
      const states = await lockSourceAlertStates(tx, rule.id);
      const deliveries = [];
      for (const source of watched) {
        const state = states.find((row) => row.source_type === source.type && row.kind === kind);
        const verdict = verdictOf(rule, kind, source, now);
        const open = state?.open ?? false;
        let episode = state?.episode ?? 0;
        let alert: SourceAlertKind | null = null;
        if (!open && verdict.bad) {
          episode += 1;
          alert = kind;
        } else if (open && verdict.good) {
          alert = rule.notify_recovery ? (kind === 'failure' ? 'recovered' : 'refreshed') : null;
        } else {
          continue;
        }
        await saveSourceAlertState(tx, {
          ruleId: rule.id,
          sourceType: source.type,
          kind,
          open: !open,
          episode,
        });
        if (alert) {
          const payload = alertOf(rule, alert, source, now, options.appUrl);
          deliveries.push(
            ...deliveriesFor(rule, 'source', [], (recipient) =>
              [rule.id, source.type, kind, episode, alert, recipient].join(':'),
            ).map((delivery) => ({ ...delivery, payload })),
          );
        }
      }
      const ids = await insertDeliveries(tx, deliveries);
      await enqueueDeliveries(tx, options.queue, ids);
      return ids.length;
    });
  }
  return created;
}
