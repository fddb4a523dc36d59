import { describe, expect, it } from 'vitest';
import { calendarDateSchema, DATE_MESSAGES, dateTimeSchema, isCalendarDay } from './dates.ts';
import { parseRuDate } from './pledges.ts';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('calendarDateSchema', () => {
  it.each(['2026-01-01', '2026-01-31', '2026-02-28', '2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31'])(
    'accepts the real day %s',
    (value) => {
      expect(calendarDateSchema.safeParse(value)).toEqual({ success: true, data: value });
    },
  );

  it.each([
    ['2026-02-30', '30 February'],
    ['2026-02-31', '31 February'],
    ['2026-04-31', '31 April'],
    ['2026-06-31', '31 June'],
    ['2026-09-31', '31 September'],
    ['2026-11-31', '31 November'],
    ['2025-02-29', '29 February of a common year'],
    ['1900-02-29', '29 February of a century that is not a leap year'],
    ['2025-13-01', 'month 13'],
    ['2025-00-10', 'month 0'],
    ['2025-01-00', 'day 0'],
    ['2025-01-32', 'day 32'],
  ])('refuses %s (%s) with «Такой даты нет»', (value) => {
    expect(messageOf(calendarDateSchema.safeParse(value))).toBe(DATE_MESSAGES.noSuchDay);
  });

  it.each(['2026-2-3', '03.02.2026', '2026-02-03T00:00:00Z', '', ' 2026-02-03', '20260203'])(
    'refuses the shape %j with the format in Russian',
    (value) => {
      expect(messageOf(calendarDateSchema.safeParse(value))).toBe(DATE_MESSAGES.dateFormat);
    },
  );

  it('says the date is missing when it is not a string', () => {
    expect(messageOf(calendarDateSchema.safeParse(20260203))).toBe(DATE_MESSAGES.required);
  });
});

describe('dateTimeSchema', () => {
  it.each([
    '2026-02-28T23:59:59Z',
    '2024-02-29T00:00:00.123Z',
    '2026-03-01T00:00:00+03:00',
    '2026-03-01T00:00-05:30',
    '2026-03-01T12:30:15.123456789Z',
  ])('accepts %s', (value) => {
    expect(dateTimeSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['2026-02-30T00:00:00Z', DATE_MESSAGES.noSuchDay],
    ['2026-04-31T10:00:00Z', DATE_MESSAGES.noSuchDay],
    ['2025-02-29T10:00:00+03:00', DATE_MESSAGES.noSuchDay],
    ['2025-13-01T10:00:00Z', DATE_MESSAGES.noSuchDay],
    ['2026-03-01T25:00:00Z', DATE_MESSAGES.noSuchTime],
    ['2026-03-01T24:00:00Z', DATE_MESSAGES.noSuchTime],
    ['2026-03-01T10:60:00Z', DATE_MESSAGES.noSuchTime],
    ['2026-03-01T10:00:61Z', DATE_MESSAGES.noSuchTime],
    ['2026-03-01T10:00:00+24:00', DATE_MESSAGES.noSuchTime],
    ['2026-03-01T10:00:00', DATE_MESSAGES.dateTimeFormat],
    ['2026-03-01', DATE_MESSAGES.dateTimeFormat],
    ['yesterday', DATE_MESSAGES.dateTimeFormat],
  ])('refuses %s', (value, message) => {
    expect(messageOf(dateTimeSchema.safeParse(value))).toBe(message);
  });
});

describe('isCalendarDay and the pledge forms’ dates', () => {
  it('follows the Gregorian leap years', () => {
    expect([2024, 2000, 2400].map((year) => isCalendarDay(year, 2, 29))).toEqual([true, true, true]);
    expect([2025, 1900, 2100].map((year) => isCalendarDay(year, 2, 29))).toEqual([false, false, false]);
  });

  it('refuses impossible days typed as ДД.ММ.ГГГГ or ГГГГ-ММ-ДД', () => {
    expect(['30.02.2026', '31.04.2026', '29.02.2025', '01.13.2025', '2026-02-30'].map(parseRuDate)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(['29.02.2024', '1.3.2026', '2026-04-30'].map(parseRuDate)).toEqual([
      '2024-02-29',
      '2026-03-01',
      '2026-04-30',
    ]);
  });

  it('reads the day of a date-time as a bank export writes it, and of an Excel date or date-time cell', () => {
    expect(
      ['15.01.2025 0:00:00', '15.01.2025 23:59', '2025-01-15 10:30:00', '45672', '45672.99'].map(parseRuDate),
    ).toEqual(['2025-01-15', '2025-01-15', '2025-01-15', '2025-01-15', '2025-01-15']);
    expect(['15.01.2025 25', '15.01.2025 10:3', '45672.', '4567.5'].map(parseRuDate)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
