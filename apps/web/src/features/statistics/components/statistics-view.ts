import {
  EVENT_TYPE_CODES,
  type EventType,
  ITEM_KINDS,
  type ItemKind,
  SOURCE_TYPE_CODES,
  type SourceType,
  STATISTICS_GROUPINGS,
  type StatisticsBody,
  type StatisticsGrouping,
  type StatisticsTotals,
} from '@pledgewatch/contract';
import { useCallback, useMemo } from 'react';
import { moscowToday } from '@/lib/moscow-time';
import { useUrlState } from '@/lib/use-url-state';

export const PERIOD_PRESETS = ['7', '30', '90', 'year', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** The statistics screen's state, in the URL (shareable, survives a reload). */
export type StatisticsView = {
  preset: PeriodPreset;
  from: string;
  to: string;
  grouping: StatisticsGrouping;
  itemKind: ItemKind | null;
  eventTypes: EventType[];
  sources: SourceType[];
  label: string;
};

const DAY_MS = 86_400_000;
const minusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/** The days of a preset, both included, ending today (Moscow). */
export function presetPeriod(
  preset: Exclude<PeriodPreset, 'custom'>,
  now = Date.now(),
): { from: string; to: string } {
  const to = moscowToday(now);
  if (preset === 'year') {
    return { from: `${to.slice(0, 4)}-01-01`, to };
  }
  return { from: minusDays(to, Number(preset) - 1), to };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
const codes = <T extends string>(values: readonly T[], value: string | null): T[] =>
  (value ?? '').split(',').filter((code): code is T => (values as readonly string[]).includes(code));

export function parseStatisticsView(params: URLSearchParams): StatisticsView {
  const preset = oneOf(PERIOD_PRESETS, params.get('period')) ?? '30';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const period =
    preset === 'custom' && DATE.test(from) && DATE.test(to)
      ? { from, to }
      : presetPeriod(preset === 'custom' ? '30' : preset);
  return {
    preset: preset === 'custom' && period.from !== from ? '30' : preset,
    ...period,
    grouping: oneOf(STATISTICS_GROUPINGS, params.get('grouping')) ?? 'day',
    itemKind: oneOf(ITEM_KINDS, params.get('kind')),
    eventTypes: codes(EVENT_TYPE_CODES, params.get('types')),
    sources: codes(SOURCE_TYPE_CODES, params.get('sources')),
    label: params.get('label') ?? '',
  };
}

export const toStatisticsBody = (view: StatisticsView, label: string): StatisticsBody => ({
  from: view.from,
  to: view.to,
  grouping: view.grouping,
  ...(view.itemKind ? { itemKind: view.itemKind } : {}),
  ...(view.eventTypes.length ? { eventTypes: view.eventTypes } : {}),
  ...(view.sources.length ? { sources: view.sources } : {}),
  ...(label.trim() ? { label: label.trim() } : {}),
});

export type StatisticsViewKey =
  | 'period'
  | 'from'
  | 'to'
  | 'grouping'
  | 'kind'
  | 'types'
  | 'sources'
  | 'label';

export function useStatisticsView() {
  const [params, setParams] = useUrlState();
  const view = useMemo(() => parseStatisticsView(params), [params]);
  const update = useCallback(
    (changes: Partial<Record<StatisticsViewKey, string | string[] | null>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            const text = Array.isArray(value) ? value.join(',') : (value ?? '');
            if (text === '') {
              next.delete(key);
            } else {
              next.set(key, text);
            }
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { view, update };
}

/**
 * Whether the period has nothing to show in any chart: every total is zero, the portfolio and spend
 * included, so the «no data» note never sits above a chart that shows something.
 */
export function periodIsEmpty(totals: StatisticsTotals): boolean {
  const numbers = (value: unknown): number[] =>
    typeof value === 'number'
      ? [value]
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(numbers)
        : [];
  return numbers(totals).every((value) => value === 0);
}
