import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, tooManyAttemptsMessage } from './rate-limit.ts';

const now = new Date('2026-01-01T12:00:00Z');
const rules = [
  { prefix: 'user:', max: 5 },
  { prefix: 'ip:', max: 20 },
];

describe('retryAfterSeconds', () => {
  it('is 0 while every key is under its limit', () => {
    const counts = [
      { key: 'user:a@b.ru', count: 4, oldest: new Date(now.getTime() - 60_000) },
      { key: 'ip:1.2.3.4', count: 19, oldest: new Date(now.getTime() - 60_000) },
    ];
    expect(retryAfterSeconds(counts, rules, 900, now)).toBe(0);
  });

  it('waits until the oldest attempt of an exhausted key leaves the window', () => {
    const counts = [{ key: 'user:a@b.ru', count: 5, oldest: new Date(now.getTime() - 300_000) }];
    expect(retryAfterSeconds(counts, rules, 900, now)).toBe(600);
  });

  it('takes the longest wait when several keys are exhausted', () => {
    const counts = [
      { key: 'user:a@b.ru', count: 5, oldest: new Date(now.getTime() - 800_000) },
      { key: 'ip:1.2.3.4', count: 25, oldest: new Date(now.getTime() - 100_000) },
    ];
    expect(retryAfterSeconds(counts, rules, 900, now)).toBe(800);
  });

  it('ignores keys no rule covers', () => {
    expect(retryAfterSeconds([{ key: 'other:x', count: 99, oldest: now }], rules, 900, now)).toBe(0);
  });
});

describe('tooManyAttemptsMessage', () => {
  it('rounds up to whole minutes, at least one', () => {
    expect(tooManyAttemptsMessage(5)).toBe('Слишком много попыток. Повторите через 1 мин.');
    expect(tooManyAttemptsMessage(601)).toBe('Слишком много попыток. Повторите через 11 мин.');
  });
});
