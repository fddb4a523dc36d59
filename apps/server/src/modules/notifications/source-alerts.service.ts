import type { SourceAlert, SourceAlertKind, SourceType } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { insertDeliveries, listSourceRules, type RuleRow } from './notifications.queries.ts';
import { deliveriesFor, enqueueDeliveries } from './notifications.service.ts';
import {
  listSourceAlertStates,
  lockRule,
  lockSourceAlertStates,
  type SourceAlertStateKind,
  type SourceAlertStateRow,
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

/** An episode that opens (with its alert) or closes (with the recovery message, if the rule asks). */
interface StateChange {
  source: SourceHealth;
  open: boolean;
  episode: number;
  alert: SourceAlertKind | null;
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
  const firstLook = await listSourceAlertStates(options.db);
  let created = 0;
  for (const rule of await listSourceRules(options.db)) {
    const kind: SourceAlertStateKind = rule.subject === 'source_failure' ? 'failure' : 'stale';
    const watched = options.sources.filter(
      (source) => rule.source_type === null || source.type === rule.source_type,
    );
    const changes = (states: SourceAlertStateRow[]) =>
      watched.flatMap((source): StateChange[] => {
        const state = states.find(
          (row) => row.rule_id === rule.id && row.source_type === source.type && row.kind === kind,
        );
        const verdict = verdictOf(rule, kind, source, now);
        const open = state?.open ?? false;
        const episode = state?.episode ?? 0;
        if (!open && verdict.bad) {
          return [{ source, open: true, episode: episode + 1, alert: kind }];
        }
        if (open && verdict.good) {
          const recovery: SourceAlertKind = kind === 'failure' ? 'recovered' : 'refreshed';
          return [{ source, open: false, episode, alert: rule.notify_recovery ? recovery : null }];
        }
        return [];
      });
    // Most minutes nothing changes: only a rule with a change takes a transaction and its locks.
    if (changes(firstLook).length === 0) {
      continue;
    }
    created += await withTransaction(options.db, async (tx) => {
      if (!(await lockRule(tx, rule.id))) {
        return 0;
      }
      const deliveries = [];
      for (const change of changes(await lockSourceAlertStates(tx, rule.id))) {
        const { source, episode, alert } = change;
        await saveSourceAlertState(tx, {
          ruleId: rule.id,
          sourceType: source.type,
          kind,
          open: change.open,
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
