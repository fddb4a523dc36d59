import { describe, expect, it } from 'vitest';
import {
  type LoginStats,
  loginRetryAfterSeconds,
  pairLimit,
  retryAfterSeconds,
  throttleAddress,
  tooManyAttemptsMessage,
} from './rate-limit.ts';

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

describe('loginRetryAfterSeconds', () => {
  const limits = { maxAttempts: 5, windowSeconds: 900 };
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const stats = (overrides: Partial<LoginStats>): LoginStats => ({
    pairFailures: 0,
    pairLastFailure: null,
    ipFailures: 0,
    ipOldestFailure: null,
    accountFailures: 0,
    knownAddress: false,
    now,
    ...overrides,
  });

  it('lets a pair try freely below the limit', () => {
    expect(loginRetryAfterSeconds(stats({ pairFailures: 4, pairLastFailure: ago(1) }), limits)).toBe(0);
  });

  it('delays a pair at the limit by 60 s, doubling per further failure, capped at the window', () => {
    const wait = (failures: number) =>
      loginRetryAfterSeconds(stats({ pairFailures: failures, pairLastFailure: ago(0) }), limits);
    expect([5, 6, 7, 8, 9, 10, 30].map(wait)).toEqual([60, 120, 240, 480, 900, 900, 900]);
    expect(loginRetryAfterSeconds(stats({ pairFailures: 5, pairLastFailure: ago(61) }), limits)).toBe(0);
  });

  it('account-wide failures never block by themselves: they only shorten a new address’s allowance', () => {
    expect(loginRetryAfterSeconds(stats({ accountFailures: 10_000 }), limits)).toBe(0);
    expect(pairLimit(stats({ accountFailures: 20 }), limits)).toBe(2);
    expect(pairLimit(stats({ accountFailures: 20, knownAddress: true }), limits)).toBe(5);
    expect(pairLimit(stats({ accountFailures: 19 }), limits)).toBe(5);
  });

  it('blocks an address with many failures across accounts, except for accounts known there', () => {
    const busy = { ipFailures: 20, ipOldestFailure: ago(300) };
    expect(loginRetryAfterSeconds(stats(busy), limits)).toBe(600);
    expect(loginRetryAfterSeconds(stats({ ...busy, knownAddress: true }), limits)).toBe(0);
  });
});

describe('throttleAddress', () => {
  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(throttleAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(throttleAddress('203.0.113.5')).toBe('203.0.113.5');
  });
});
