import { z } from 'zod';

/**
 * The API's two date inputs: a calendar day and an ISO 8601 date-time. Every date a client sends in a
 * query, path or body is one of these (or, in the pledge forms, `parseRuDate`, which checks days the same
 * way), so an impossible date is a 422 with a Russian message and never a PostgreSQL error.
 */

export const DATE_MESSAGES = {
  required: 'Укажите дату',
  dateFormat: 'Дата в формате ГГГГ-ММ-ДД',
  dateTimeFormat: 'Дата и время в формате ISO 8601, например 2026-03-01T00:00:00+03:00',
  noSuchDay: 'Такой даты нет',
  noSuchTime: 'Такого времени нет',
} as const;

/** Whether the numbers name a day of the Gregorian calendar: no 30 February, 31 April or 29 February of a common year. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1) {
    return false;
  }
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (lengths[month - 1] ?? 0);
}

const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/** Whether the text is a real day written ГГГГ-ММ-ДД. */
export function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE_PATTERN.exec(value);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Why an ISO 8601 date-time is refused (wrong shape, no such day, no such time), or null when it is fine. */
export function dateTimeIssue(value: string): string | null {
  const match = DATE_TIME_PATTERN.exec(value);
  if (!match) {
    return DATE_MESSAGES.dateTimeFormat;
  }
  if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    return DATE_MESSAGES.noSuchDay;
  }
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  const [offsetHour, offsetMinute] = [Number(match[8] ?? 0), Number(match[9] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59) {
    return DATE_MESSAGES.noSuchTime;
  }
  return null;
}

/**
 * The one calendar-day input of the API (ГГГГ-ММ-ДД). Every query, path and body day goes through
 * it, so an impossible day (30 February) is a 422 here and never reaches PostgreSQL as a 500.
 */
export const calendarDateSchema = z
  .string({ error: DATE_MESSAGES.required })
  .superRefine((value, context) => {
    if (!CALENDAR_DATE_PATTERN.test(value)) {
      context.addIssue({ code: 'custom', message: DATE_MESSAGES.dateFormat });
    } else if (!isCalendarDate(value)) {
      context.addIssue({ code: 'custom', message: DATE_MESSAGES.noSuchDay });
    }
  })
  .meta({ format: 'date' })
  .describe('Календарный день, ГГГГ-ММ-ДД');

/** The one date-time input of the API: ISO 8601 with `Z` or an offset, checked down to the hour and second. */
export const dateTimeSchema = z
  .string({ error: DATE_MESSAGES.required })
  .superRefine((value, context) => {
    const issue = dateTimeIssue(value);
    if (issue) {
      context.addIssue({ code: 'custom', message: issue });
    }
  })
  .meta({ format: 'date-time' })
  .describe('Дата и время в ISO 8601 с часовым поясом');
