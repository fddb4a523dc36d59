import { describe, expect, it } from 'vitest';
import { moscowDateTimeFormat, moscowMidnight, moscowToday, nextDay } from './moscow-time';

describe('web Moscow time', () => {
  it('takes the Moscow date of an instant near the UTC/Moscow boundary', () => {
    expect(moscowToday(Date.parse('2026-03-01T21:30:00Z'))).toBe('2026-03-02');
    expect(moscowToday(Date.parse('2026-03-01T20:59:59Z'))).toBe('2026-03-01');
    expect(moscowDateTimeFormat.format(new Date('2026-03-01T21:30:00Z'))).toBe('02.03.2026, 00:30');
  });

  it('turns a Moscow day into the instant of its midnight, by the time-zone database', () => {
    expect(moscowMidnight('2026-03-02')).toBe('2026-03-01T21:00:00.000Z');
    expect(moscowMidnight('2013-06-01')).toBe('2013-05-31T20:00:00.000Z'); // UTC+4 then
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
