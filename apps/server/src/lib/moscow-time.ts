/**
 * Moscow time for the whole server: every date and clock shown to people, and every Moscow day turned
 * into an instant, goes through here. Intl with the time-zone database, never a fixed +3 h, so a
 * change of Moscow's offset is a tzdata update, not a code change. (SQL does the same with
 * `AT TIME ZONE 'Europe/Moscow'`.)
 */

export const MOSCOW_TIME_ZONE = 'Europe/Moscow';

const dateTimeFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: MOSCOW_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const dateTimeSecondsFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: MOSCOW_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  timeZone: MOSCOW_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
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

/** «12.03.2026 14:05», or «12.03.2026 14:05:09» with seconds. */
export const formatMoscowDateTime = (date: Date, options: { seconds?: boolean } = {}): string =>
  (options.seconds ? dateTimeSecondsFormat : dateTimeFormat).format(date).replace(',', '');

/** «12.03.2026 14:05 (МСК)». */
export const formatMoscow = (date: Date): string => `${formatMoscowDateTime(date)} (МСК)`;

/** «12.03.2026». */
export const formatMoscowDate = (date: Date): string => dateFormat.format(date);

/** The Moscow wall clock of an instant: calendar date (YYYY-MM-DD), hour, minute and second. */
export function moscowClock(date: Date): { date: string; hour: number; minute: number; second: number } {
  const parts: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(date)) {
    parts[part.type] = part.value;
  }
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The Moscow calendar date (YYYY-MM-DD) of an instant. */
export const moscowDate = (date: Date): string => moscowClock(date).date;

/** Moscow's offset from UTC at an instant, in milliseconds. */
function moscowOffsetMs(instant: number): number {
  const clock = moscowClock(new Date(instant));
  const [year, month, day] = clock.date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, clock.hour, clock.minute, clock.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant of a Moscow wall-clock time on a Moscow date (YYYY-MM-DD, HH:MM). */
export function moscowInstant(date: string, time = '00:00'): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset of the guess, then of the result, in case the offset changed in between.
  const guess = wall - moscowOffsetMs(wall);
  return new Date(wall - moscowOffsetMs(guess));
}

/** Moscow midnight of a date (YYYY-MM-DD) as an ISO instant, e.g. for a period's bounds. */
export const moscowMidnight = (date: string): string => moscowInstant(date).toISOString();

/** The Moscow day that starts at this instant, or null when it is not a Moscow midnight. */
export function moscowDayStartingAt(iso: string): string | null {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) {
    return null;
  }
  const day = moscowDate(instant);
  return moscowInstant(day).getTime() === instant.getTime() ? day : null;
}

/** The first Moscow day starting at or after an instant (the next day when it is not a midnight). */
export function moscowDayAtOrAfter(iso: string): string {
  const starting = moscowDayStartingAt(iso);
  if (starting) {
    return starting;
  }
  const [year, month, day] = moscowDate(new Date(iso)).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}
