import {
  DELIVERY_STATUSES,
  type DeliveryCounts,
  EVENT_TYPE_CODES,
  type EventType,
  ITEM_KINDS,
  STATISTICS_TIMEZONE,
  type StatisticsGrouping,
  type StatisticsPoint,
  type StatisticsQuery,
  type StatisticsResponse,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { AuthContext } from '../../lib/auth-context.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import { moscowMidnight } from '../../lib/moscow-time.ts';
import { listSpendByDay, readStatistics, type StatisticsScope } from './statistics.queries.ts';

const DAY_MS = 86_400_000;
const toDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

export const nextDay = (date: string) => toDate(dayMs(date) + DAY_MS);

/** The first day of the day's bucket: itself, the Monday of its week, or the 1st of its month. */
export function bucketStart(date: string, grouping: StatisticsGrouping): string {
  if (grouping === 'day') {
    return date;
  }
  if (grouping === 'month') {
    return `${date.slice(0, 7)}-01`;
  }
  const ms = dayMs(date);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return toDate(ms - weekday * DAY_MS);
}

function nextBucketStart(start: string, grouping: StatisticsGrouping): string {
  if (grouping === 'day') {
    return nextDay(start);
  }
  if (grouping === 'week') {
    return toDate(dayMs(start) + 7 * DAY_MS);
  }
  const year = Number(start.slice(0, 4));
  const month = Number(start.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/**
 * Every bucket of the period, in order: `key` is the bucket's first day (what SQL's date_trunc gives),
 * `bucket`/`bucketEnd` the days of it inside the period.
 */
export function periodBuckets(
  from: string,
  to: string,
  grouping: StatisticsGrouping,
): { key: string; bucket: string; bucketEnd: string }[] {
  const buckets: { key: string; bucket: string; bucketEnd: string }[] = [];
  for (let key = bucketStart(from, grouping); key <= to; key = nextBucketStart(key, grouping)) {
    const last = toDate(dayMs(nextBucketStart(key, grouping)) - DAY_MS);
    buckets.push({ key, bucket: key < from ? from : key, bucketEnd: last > to ? to : last });
  }
  return buckets;
}

const emptyDeliveries = (): DeliveryCounts =>
  Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as DeliveryCounts;

export async function getStatistics(options: {
  db: pg.Pool;
  auth: AuthContext;
  query: StatisticsQuery;
}): Promise<StatisticsResponse> {
  const { query } = options;
  const label = query.label?.trim().toLowerCase();
  const scope: StatisticsScope = {
    organisationId: options.auth.organisationId,
    fromDate: query.from,
    toDate: query.to,
    fromTs: moscowMidnight(query.from),
    toTs: moscowMidnight(nextDay(query.to)),
    grouping: query.grouping,
    itemKinds: query.itemKind ? [query.itemKind] : [...ITEM_KINDS],
    labelPattern: label ? containsPattern(label) : null,
  };
  const eventFilter = {
    eventTypes: query.eventTypes?.length ? query.eventTypes : null,
    sources: query.sources?.length ? query.sources : null,
  };
  const { events, portfolio, runs, oneTime, uploads, deliveries } = await readStatistics(
    options.db,
    scope,
    eventFilter,
  );

  const types: EventType[] = eventFilter.eventTypes
    ? EVENT_TYPE_CODES.filter((type) => eventFilter.eventTypes!.includes(type))
    : [...EVENT_TYPE_CODES];
  const points = new Map<string, StatisticsPoint>();
  const ordered: StatisticsPoint[] = [];
  for (const { key, bucket, bucketEnd } of periodBuckets(query.from, query.to, query.grouping)) {
    const point: StatisticsPoint = {
      bucket,
      bucketEnd,
      events: 0,
      eventsByType: Object.fromEntries(types.map((type) => [type, 0])),
      itemsMonitored: 0,
      itemsAdded: 0,
      itemsArchived: 0,
      checkRuns: 0,
      checkRunItems: 0,
      oneTimeChecks: 0,
      uploads: 0,
      uploadRows: 0,
      uploadRowsAccepted: 0,
      uploadRowsRejected: 0,
      deliveries: emptyDeliveries(),
    };
    points.set(key, point);
    ordered.push(point);
  }
  // Rows outside the buckets cannot come back (the queries use the same period); `?.` is a guard.
  for (const row of events) {
    const point = points.get(row.bucket);
    if (point && row.event_type in point.eventsByType) {
      point.eventsByType[row.event_type] = (point.eventsByType[row.event_type] ?? 0) + row.n;
      point.events += row.n;
    }
  }
  for (const row of portfolio.added) {
    const point = points.get(row.bucket);
    if (point) {
      point.itemsAdded += row.n;
    }
  }
  for (const row of portfolio.archived) {
    const point = points.get(row.bucket);
    if (point) {
      point.itemsArchived += row.n;
    }
  }
  let monitored = portfolio.start;
  for (const point of ordered) {
    monitored += point.itemsAdded - point.itemsArchived;
    point.itemsMonitored = monitored;
  }
  for (const row of runs) {
    const point = points.get(row.bucket);
    if (point) {
      point.checkRuns += row.n;
      point.checkRunItems += row.items;
    }
  }
  for (const row of oneTime) {
    const point = points.get(row.bucket);
    if (point) {
      point.oneTimeChecks += row.n;
    }
  }
  for (const row of uploads) {
    const point = points.get(row.bucket);
    if (point) {
      point.uploads += row.n;
      point.uploadRows += row.rows_total;
      point.uploadRowsAccepted += row.rows_accepted;
      point.uploadRowsRejected += row.rows_rejected;
    }
  }
  for (const row of deliveries) {
    const point = points.get(row.bucket);
    if (point) {
      point.deliveries[row.status] += row.n;
    }
  }

  // Money for admins only: the field is absent for the other roles.
  const seesMoney = options.auth.role === 'admin';
  if (seesMoney) {
    const spend = await listSpendByDay(options.db, query.from, query.to);
    for (const point of ordered) {
      point.spend =
        Math.round(
          spend
            .filter((row) => row.day >= point.bucket && row.day <= point.bucketEnd)
            .reduce((total, row) => total + Number(row.spend), 0) * 100,
        ) / 100;
    }
  }
  const sum = (pick: (point: StatisticsPoint) => number) =>
    ordered.reduce((total, point) => total + pick(point), 0);
  const eventsByType = Object.fromEntries(
    types.map((type) => [type, sum((point) => point.eventsByType[type] ?? 0)]),
  );
  const deliveryTotals = emptyDeliveries();
  for (const status of DELIVERY_STATUSES) {
    deliveryTotals[status] = sum((point) => point.deliveries[status]);
  }
  return {
    from: query.from,
    to: query.to,
    grouping: query.grouping,
    timezone: STATISTICS_TIMEZONE,
    // Stable: by count, then in the contract's order.
    eventTypes: [...types].sort((a, b) => (eventsByType[b] ?? 0) - (eventsByType[a] ?? 0)),
    points: ordered,
    totals: {
      events: sum((point) => point.events),
      eventsByType,
      itemsMonitoredStart: portfolio.start,
      itemsMonitoredEnd: monitored,
      itemsAdded: sum((point) => point.itemsAdded),
      itemsArchived: sum((point) => point.itemsArchived),
      checkRuns: sum((point) => point.checkRuns),
      checkRunItems: sum((point) => point.checkRunItems),
      oneTimeChecks: sum((point) => point.oneTimeChecks),
      uploads: sum((point) => point.uploads),
      uploadRows: sum((point) => point.uploadRows),
      uploadRowsAccepted: sum((point) => point.uploadRowsAccepted),
      uploadRowsRejected: sum((point) => point.uploadRowsRejected),
      deliveries: deliveryTotals,
      deliveriesTotal: DELIVERY_STATUSES.reduce((total, status) => total + deliveryTotals[status], 0),
      ...(seesMoney ? { spend: Math.round(sum((point) => point.spend ?? 0) * 100) / 100 } : {}),
    },
  };
}
