import { describe, expect, it } from 'vitest';
import { parseRuDate, validateRegistrationNumber } from './pledges.ts';

describe('parseRuDate', () => {
  it('reads ДД.ММ.ГГГГ, Д/М/ГГГГ, ГГГГ-ММ-ДД (with a time too) and an Excel serial day', () => {
    expect(parseRuDate('05.03.2024')).toBe('2024-03-05');
    expect(parseRuDate(' 5.3.2024 ')).toBe('2024-03-05');
    expect(parseRuDate('5/3/2024')).toBe('2024-03-05');
    expect(parseRuDate('2024-03-05')).toBe('2024-03-05');
    expect(parseRuDate('2024-03-05T10:00:00Z')).toBe('2024-03-05');
    // 45356 days after 1899-12-30 is 2024-03-05 in Excel's count.
    expect(parseRuDate('45356')).toBe('2024-03-05');
  });

  it('refuses days that are not on the calendar, years out of range and other text', () => {
    expect(parseRuDate('31.02.2024')).toBeNull();
    expect(parseRuDate('29.02.2023')).toBeNull();
    expect(parseRuDate('29.02.2024')).toBe('2024-02-29');
    expect(parseRuDate('00.01.2024')).toBeNull();
    expect(parseRuDate('01.13.2024')).toBeNull();
    expect(parseRuDate('2024-02-30')).toBeNull();
    expect(parseRuDate('01.01.1899')).toBeNull();
    expect(parseRuDate('01.01.2101')).toBeNull();
    expect(parseRuDate('12345')).toBeNull();
    expect(parseRuDate('5 марта 2024')).toBeNull();
    expect(parseRuDate('05.03.24')).toBeNull();
    expect(parseRuDate('')).toBeNull();
  });
});

describe('validateRegistrationNumber', () => {
  it('takes a creation number, trimming spaces and turning typographic dashes into hyphens', () => {
    expect(validateRegistrationNumber('2024-001-234567-890')).toEqual({
      ok: true,
      value: '2024-001-234567-890',
    });
    expect(validateRegistrationNumber(' 2024 – 001 — 234567‑890 ')).toEqual({
      ok: true,
      value: '2024-001-234567-890',
    });
  });

  it('refuses a malformed number with the Russian rule, and a notice number unless notices are allowed', () => {
    const rule = 'Регистрационный номер: формат ГГГГ-ННН-НННННН-ННН, например 2024-001-234567-890';
    expect(validateRegistrationNumber('2024-01-234567-890')).toEqual({ ok: false, error: rule });
    expect(validateRegistrationNumber('')).toEqual({ ok: false, error: rule });
    expect(validateRegistrationNumber('2024-001-234567-890/2')).toEqual({ ok: false, error: rule });
    expect(validateRegistrationNumber('2024-001-234567-890/2', { notice: true })).toEqual({
      ok: true,
      value: '2024-001-234567-890/2',
    });
    const noticeRefused = validateRegistrationNumber('2024-001-234567-890/0', { notice: true });
    expect(noticeRefused.ok).toBe(false);
    expect(!noticeRefused.ok && noticeRefused.error).toMatch(/^Регистрационный номер: формат .*«\/N»/);
  });

  it('refuses a year before the registry (2014) or beyond next year', () => {
    expect(validateRegistrationNumber('2013-001-406288-623')).toEqual({
      ok: false,
      error: 'Регистрационный номер: год 2013 невозможен (реестр ведётся с 2014 года)',
    });
    const tooLate = new Date().getFullYear() + 2;
    expect(validateRegistrationNumber(`${tooLate}-001-406288-623`).ok).toBe(false);
    expect(validateRegistrationNumber(`${new Date().getFullYear() + 1}-001-406288-623`).ok).toBe(true);
    expect(validateRegistrationNumber('2014-001-406288-623').ok).toBe(true);
  });
});
