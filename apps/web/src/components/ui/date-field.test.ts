import { describe, expect, it } from 'vitest';
import { dateToIso, isoToDate } from './date-field';

describe('the date field’s values', () => {
  it('keeps the calendar day of the API’s ГГГГ-ММ-ДД both ways', () => {
    const date = isoToDate('2026-03-01');
    expect([date?.getFullYear(), date?.getMonth(), date?.getDate()]).toEqual([2026, 2, 1]);
    expect(dateToIso(new Date(2026, 2, 1))).toBe('2026-03-01');
  });

  it('shows nothing for an empty, partial or impossible day', () => {
    expect(isoToDate('')).toBeNull();
    expect(isoToDate('2026-03')).toBeNull();
    expect(isoToDate('01.03.2026')).toBeNull();
    expect(isoToDate('2026-02-30')).toBeNull();
  });
});
