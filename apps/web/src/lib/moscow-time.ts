/**
 * Moscow time for the web app, whatever the browser's zone: the dates people pick are Moscow days,
 * and instants are shown in Moscow time. Intl with the time-zone database, never a fixed +3 h.
 */

const MOSCOW_TIME_ZONE = 'Europe/Moscow';

/** «21.11.2026, 14:05». */
export const moscowDateTimeFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: MOSCOW_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const partsFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: MOSCOW_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function wallClockMs(instant: number): number {
  const parts: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(new Date(instant))) {
    parts[part.type] = part.value;
  }
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

/** The Moscow calendar date (ГГГГ-ММ-ДД) of an instant; today by default. */
export const moscowToday = (now: number = Date.now()): string =>
  new Date(wallClockMs(now)).toISOString().slice(0, 10);

/** Moscow midnight of a day (ГГГГ-ММ-ДД) as an ISO instant, e.g. for a period's bound. */
export function moscowMidnight(date: string): string {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const offset = (instant: number) => wallClockMs(instant) - Math.floor(instant / 1000) * 1000;
  const guess = wall - offset(wall);
  return new Date(wall - offset(guess)).toISOString();
}

/** The day after a day (ГГГГ-ММ-ДД). */
export const nextDay = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
