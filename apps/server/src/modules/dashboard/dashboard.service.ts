import {
  DASHBOARD_FAILED_DELIVERY_DAYS,
  DASHBOARD_RECENT_CHECKS,
  type DashboardResponse,
  DOCUMENT_TYPE_LABELS,
  EVENT_TYPE_CODES,
  ITEM_KINDS,
  SEVERITY_CODES,
} from '@pledgewatch/contract';
import { type DocumentType, formatDocument } from '@pledgewatch/identifiers';
import type pg from 'pg';
import type { AuthContext } from '../../lib/auth-context.ts';
import { listRunFailedSources } from '../checks/index.ts';
import { readDashboard } from './dashboard.queries.ts';

export async function getDashboard(options: { db: pg.Pool; auth: AuthContext }): Promise<DashboardResponse> {
  const { db } = options;
  const organisationId = options.auth.organisationId;
  const since = new Date(Date.now() - DASHBOARD_FAILED_DELIVERY_DAYS * 86_400_000);
  const { items, unread, lastRun, deliveries, checks, lastItemCheckAt } = await readDashboard(db, {
    organisationId,
    since,
    recentChecks: DASHBOARD_RECENT_CHECKS,
  });
  const failedSources = lastRun ? ((await listRunFailedSources(db, [lastRun.id])).get(lastRun.id) ?? []) : [];

  const byKind = ITEM_KINDS.map((kind) => {
    const of = (status: string) => items.find((row) => row.kind === kind && row.status === status)?.n ?? 0;
    return { kind, active: of('active'), paused: of('paused'), archived: of('archived') };
  });
  const typeOrder = (type: string) => EVENT_TYPE_CODES.indexOf(type as never);
  const severityRank = (severity: string) => SEVERITY_CODES.indexOf(severity as never);
  const byType = unread
    .map((row) => ({ type: row.event_type, severity: row.severity, count: row.n }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        severityRank(b.severity) - severityRank(a.severity) ||
        typeOrder(a.type) - typeOrder(b.type),
    );
  const bySeverity = [...SEVERITY_CODES].reverse().map((severity) => ({
    severity,
    count: unread.filter((row) => row.severity === severity).reduce((sum, row) => sum + row.n, 0),
  }));

  return {
    items: {
      monitored: byKind.reduce((sum, kind) => sum + kind.active + kind.paused, 0),
      byKind,
    },
    unreadEvents: {
      total: unread.reduce((sum, row) => sum + row.n, 0),
      byType,
      bySeverity,
    },
    lastRun: lastRun
      ? {
          id: lastRun.id,
          trigger: lastRun.trigger,
          status: lastRun.status,
          itemsTotal: lastRun.items_total,
          itemsDone: lastRun.items_done,
          eventsCreated: lastRun.events_created,
          createdAt: lastRun.created_at.toISOString(),
          startedAt: lastRun.started_at?.toISOString() ?? null,
          finishedAt: lastRun.finished_at?.toISOString() ?? null,
          failedSources,
        }
      : null,
    lastItemCheckAt: lastItemCheckAt?.toISOString() ?? null,
    deliveries: {
      failedRecent: deliveries.recent,
      failedTotal: deliveries.total,
      since: since.toISOString(),
    },
    recentOneTimeChecks: checks.map((row) => ({
      id: row.id,
      number: row.number,
      kind: row.kind,
      documentType: row.document_type as DocumentType | null,
      documentTypeLabel: row.document_type ? DOCUMENT_TYPE_LABELS[row.document_type as DocumentType] : null,
      identifier: row.identifier,
      identifierDisplay:
        row.kind === 'document' && row.document_type
          ? formatDocument(row.document_type as DocumentType, row.identifier)
          : row.identifier,
      status: row.status,
      findingsCount: row.findings_count,
      demo: row.demo,
      createdBy: { id: row.created_by, fullName: row.created_by_name },
      createdAt: row.created_at.toISOString(),
      durationMs: row.duration_ms,
    })),
  };
}
