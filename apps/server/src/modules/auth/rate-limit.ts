import ipaddr from 'ipaddr.js';

/**
 * Pure rules for throttling sign-in and reset attempts, kept apart from SQL so they can be
 * tested alone. Counts come from the auth_attempts table, so the limit holds across processes.
 */
export interface AttemptCount {
  key: string;
  count: number;
  oldest: Date;
}

export interface LimitRule {
  /** Prefix of the keys this rule applies to, e.g. `user:` or `ip:`. */
  prefix: string;
  max: number;
}

/** Seconds until the caller may try again, or 0 when no rule is exceeded. */
export function retryAfterSeconds(
  counts: AttemptCount[],
  rules: LimitRule[],
  windowSeconds: number,
  now: Date = new Date(),
): number {
  let wait = 0;
  for (const count of counts) {
    const rule = rules.find((candidate) => count.key.startsWith(candidate.prefix));
    if (!rule || count.count < rule.max) {
      continue;
    }
    const freeAt = count.oldest.getTime() + windowSeconds * 1000;
    wait = Math.max(wait, Math.ceil((freeAt - now.getTime()) / 1000));
  }
  return Math.max(wait, 0);
}

export function tooManyAttemptsMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Слишком много попыток. Повторите через ${minutes} мин.`;
}

/**
 * Sign-in throttling, counted in three scopes (see docs/security.md, "Sign-in, throttling and
 * passwords"). No rule ever refuses the right password for an account everywhere: the tightest
 * rule is per account *and* address, so a stranger's failures only slow the stranger down.
 */
export interface LoginStats {
  /** Failures for this account from this address since its last success there, within the window. */
  pairFailures: number;
  pairLastFailure: Date | null;
  /** Failures from this address across all accounts within the window (credential stuffing). */
  ipFailures: number;
  ipOldestFailure: Date | null;
  /** Failures for this account from every address within the window (a distributed attack). */
  accountFailures: number;
  /** The account has signed in successfully from this address before (KNOWN_ADDRESS_DAYS). */
  knownAddress: boolean;
  now: Date;
}

export interface LoginLimits {
  /** Failures per account and address before delays start (LOGIN_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Counting window, seconds (LOGIN_WINDOW); also the longest single delay. */
  windowSeconds: number;
}

/** Per-address limit across accounts, as a multiple of maxAttempts: offices share one address. */
export const IP_LIMIT_FACTOR = 4;
/** Account-wide failures (all addresses), as a multiple of maxAttempts, that mark an attack. */
export const ACCOUNT_ATTACK_FACTOR = 4;
/** Failures a new address gets for an account under attack before delays start. */
export const UNDER_ATTACK_PAIR_LIMIT = 2;
/** The first delay once a pair is over its limit; it doubles with every further failure. */
export const BASE_DELAY_SECONDS = 60;
/** How long a successful sign-in makes its address "known" for the account. */
export const KNOWN_ADDRESS_DAYS = 30;

/** Failures an account and address pair may have before delays start. */
export function pairLimit(stats: LoginStats, limits: LoginLimits): number {
  const underAttack = stats.accountFailures >= limits.maxAttempts * ACCOUNT_ATTACK_FACTOR;
  return underAttack && !stats.knownAddress
    ? Math.min(UNDER_ATTACK_PAIR_LIMIT, limits.maxAttempts)
    : limits.maxAttempts;
}

/** Seconds until this account and address pair may try again, or 0. */
export function loginRetryAfterSeconds(stats: LoginStats, limits: LoginLimits): number {
  const now = stats.now.getTime();
  let wait = 0;
  // An address with many failures across accounts waits for the window to slide, except for
  // accounts that already signed in from it (colleagues behind the same office NAT).
  if (
    !stats.knownAddress &&
    stats.ipOldestFailure &&
    stats.ipFailures >= limits.maxAttempts * IP_LIMIT_FACTOR
  ) {
    wait = Math.max(wait, stats.ipOldestFailure.getTime() + limits.windowSeconds * 1000 - now);
  }
  const limit = pairLimit(stats, limits);
  if (stats.pairLastFailure && stats.pairFailures >= limit) {
    const delay = Math.min(
      limits.windowSeconds,
      BASE_DELAY_SECONDS * 2 ** Math.min(stats.pairFailures - limit, 20),
    );
    wait = Math.max(wait, stats.pairLastFailure.getTime() + delay * 1000 - now);
  }
  return Math.max(0, Math.ceil(wait / 1000));
}

/**
 * The address as throttling counts it. One IPv6 client usually holds a whole /64, so counting
 * single IPv6 addresses would hand it 2^64 fresh budgets; IPv4-mapped IPv6 counts as IPv4.
 */
export function throttleAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) {
    return ip;
  }
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') {
    return parsed.toString();
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}
