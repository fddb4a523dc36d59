import { describe, expect, it } from 'vitest';
import {
  formatMoscow,
  formatMoscowDate,
  formatMoscowDateTime,
  moscowClock,
  moscowDate,
  moscowDayStartingAt,
  moscowInstant,
  moscowMidnight,
} from './moscow-time.ts';

// 21:30 UTC on 1 March is already 00:30 on 2 March in Moscow.
const nearMidnight = new Date('2026-03-01T21:30:00Z');

describe('Moscow time', () => {
  it('formats an instant near the UTC/Moscow date boundary on the Moscow date', () => {
    expect(formatMoscow(nearMidnight)).toBe('02.03.2026 00:30 (МСК)');
    expect(formatMoscowDateTime(nearMidnight)).toBe('02.03.2026 00:30');
    expect(formatMoscowDateTime(new Date('2026-03-01T21:30:09Z'), { seconds: true })).toBe(
      '02.03.2026 00:30:09',
    );
    expect(formatMoscowDate(nearMidnight)).toBe('02.03.2026');
  });

  it('gives the Moscow calendar date and clock of an instant', () => {
    expect(moscowDate(nearMidnight)).toBe('2026-03-02');
    expect(moscowDate(new Date('2026-03-01T20:59:59Z'))).toBe('2026-03-01');
    expect(moscowClock(nearMidnight)).toEqual({ date: '2026-03-02', hour: 0, minute: 30, second: 0 });
    expect(moscowClock(new Date('2026-12-31T20:59:00Z'))).toEqual({
      date: '2026-12-31',
      hour: 23,
      minute: 59,
      second: 0,
    });
  });

  it('turns a Moscow day and time into the instant', () => {
    expect(moscowMidnight('2026-03-02')).toBe('2026-03-01T21:00:00.000Z');
    expect(moscowInstant('2026-03-02', '07:30').toISOString()).toBe('2026-03-02T04:30:00.000Z');
    // The time-zone database, not a fixed +3 h: Moscow was UTC+4 in 2011–2014 and UTC+3 before.
    expect(moscowMidnight('2013-06-01')).toBe('2013-05-31T20:00:00.000Z');
    expect(moscowMidnight('2010-01-15')).toBe('2010-01-14T21:00:00.000Z');
  });

  it('recognises an instant that starts a Moscow day, whatever its offset notation', () => {
    expect(moscowDayStartingAt('2026-03-02T00:00:00+03:00')).toBe('2026-03-02');
    expect(moscowDayStartingAt('2026-03-01T21:00:00.000Z')).toBe('2026-03-02');
    expect(moscowDayStartingAt('2026-03-01T21:00:01Z')).toBeNull();
    expect(moscowDayStartingAt('2026-03-02T00:00:00Z')).toBeNull();
    expect(moscowDayStartingAt('not a date')).toBeNull();
  });
});
