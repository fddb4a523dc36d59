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
