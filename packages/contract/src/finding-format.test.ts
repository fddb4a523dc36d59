import { describe, expect, it } from 'vitest';
import { findingLines, formatFindingValue, formatPeopleDate } from './finding-format.ts';

describe('finding values for people', () => {
  it('writes dates as ДД.ММ.ГГГГ and instants in Moscow time', () => {
    expect(formatPeopleDate('2026-11-20')).toBe('20.11.2026');
    expect(formatPeopleDate('2026-11-20T10:05:00.000Z')).toBe('20.11.2026 13:05');
    expect(formatPeopleDate('2026-11-20T23:30:00+03:00')).toBe('20.11.2026 23:30');
    expect(formatPeopleDate('КД-2026-11')).toBe('КД-2026-11');
  });

  it('labels statuses, flags, numbers and empty values', () => {
    expect(formatFindingValue('registered_at', '2026-01-02')).toBe('02.01.2026');
    expect(formatFindingValue('status', 'closed')).toBe('Завершено');
    expect(formatFindingValue('verified', false)).toBe('не подтверждено реестром');
    expect(formatFindingValue('amount', 1234567.5)).toBe('1 234 567,5');
    expect(formatFindingValue('note', '')).toBe('—');
  });

  it('leaves out our own fields', () => {
    expect(
      findingLines({ demo: true, pledgeeOrganisationId: 'x', pledgee: 'ООО «Кредит»', since: '2025-03-01' }),
    ).toEqual([
      { field: 'pledgee', label: 'Залогодержатель', value: 'ООО «Кредит»' },
      { field: 'since', label: 'С даты', value: '01.03.2025' },
    ]);
  });
});
