import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { DUMMY_PASSWORD_HASH, generateToken, hashToken, verifyPassword } from '../../lib/crypto.ts';
import {
  type AttemptKind,
  countRecentAttempts,
  deleteAttempts,
  deleteSession,
  getLoginStats,
  getLoginUserByEmail,
  insertSession,
  markAttemptsSucceeded,
  pruneAttempts,
  recordFailedAttempts,
  stampLastLogin,
  touchSessionByTokenHash,
} from './auth.queries.ts';
import {
  KNOWN_ADDRESS_DAYS,
  type LimitRule,
  loginRetryAfterSeconds,
  retryAfterSeconds,
  throttleAddress,
  tooManyAttemptsMessage,
} from './rate-limit.ts';

/**
 * Checks the password and opens a session. Throttled per account and address, per address and,
 * more loosely, per account; see loginRetryAfterSeconds for why no one can lock an owner out.
 */
export async function login(options: {
  db: pg.Pool;
  config: Pick<AppConfig, 'sessionTtl' | 'loginMaxAttempts' | 'loginWindow'>;
  username: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
}): Promise<{ token: string; userId: string }> {
  const { db, config } = options;
  const email = options.username.trim().toLowerCase();
  const address = options.ip ? throttleAddress(options.ip) : null;
  const keys = {
    pairKey: `pair:${email}|${address ?? '-'}`,
    ipKey: address ? `ip:${address}` : null,
    accountKey: `user:${email}`,
  };
  const attemptKeys = [keys.pairKey, keys.ipKey, keys.accountKey].filter((key) => key !== null);
  const attemptIds = await recordFailedAttempts(db, 'login', attemptKeys);
  const stats = await getLoginStats(db, {
    ...keys,
    excludeIds: attemptIds,
    windowSeconds: config.loginWindow,
    knownSeconds: KNOWN_ADDRESS_DAYS * 24 * 3600,
  });
  const wait = loginRetryAfterSeconds(
    {
      pairFailures: stats.pair_failures,
      pairLastFailure: stats.pair_last_failure,
      ipFailures: stats.ip_failures,
      ipOldestFailure: stats.ip_oldest_failure,
      accountFailures: stats.account_failures,
      knownAddress: stats.known_address,
      now: stats.now,
    },
    { maxAttempts: config.loginMaxAttempts, windowSeconds: config.loginWindow },
  );
  if (wait > 0) {
    // A refused attempt guessed nothing, so it does not lengthen the wait.
    await deleteAttempts(db, attemptIds);
    throw new AppError('TOO_MANY_ATTEMPTS', {
      message: tooManyAttemptsMessage(wait),
      headers: { 'retry-after': String(wait) },
    });
  }

  const user = await getLoginUserByEmail(db, email);
  // Hash even for unknown users so response time does not reveal which e-mails exist.
  const passwordOk = await verifyPassword(options.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  const succeeded = Boolean(user?.password_hash && passwordOk);
  if (succeeded) {
    await markAttemptsSucceeded(db, attemptIds);
  }
  if (!user || !succeeded) {
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (!user.active) {
    throw new AppError('ACCOUNT_DISABLED');
  }
  const token = generateToken();
  await insertSession(db, {
    userId: user.id,
    tokenHash: hashToken(token),
    ttlSeconds: config.sessionTtl,
    userAgent: options.userAgent?.slice(0, 500) ?? null,
    ip: options.ip,
  });
  await stampLastLogin(db, user.id, new Date());
  return { token, userId: user.id };
}

export async function logout(options: { db: Queryable; auth: AuthContext }): Promise<void> {
  await deleteSession(options.db, { sessionId: options.auth.sessionId, userId: options.auth.userId });
}

/** Resolves a bearer token to its session, or null when it is unknown, expired or the user is disabled. */
export async function authenticateToken(options: {
  db: Queryable;
  token: string;
  sessionTtl: number;
}): Promise<AuthContext | null> {
  if (options.token.length > 200) {
    return null;
  }
  const row = await touchSessionByTokenHash(options.db, hashToken(options.token), options.sessionTtl);
  if (!row) {
    return null;
  }
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    organisationId: row.organisation_id,
    role: row.role,
    isStaff: row.is_staff,
  };
}

/**
 * Counts one attempt of an action against its limits, or refuses it with 429 and Retry-After.
 * The attempt is written before the counting, so a burst of parallel requests cannot slip past;
 * it starts as a failure, and the caller marks it succeeded (with `succeed`) when that matters.
 */
export async function throttleAttempt(
  db: Queryable,
  options: {
    kind: AttemptKind;
    keys: string[];
    rules: LimitRule[];
    windowSeconds: number;
    /** Count only failures (guesses of a secret) rather than every attempt. */
    failedOnly: boolean;
  },
): Promise<{ succeed: () => Promise<void> }> {
  const ids = await recordFailedAttempts(db, options.kind, options.keys);
  const counts = await countRecentAttempts(db, {
    kind: options.kind,
    keys: options.keys,
    windowSeconds: options.windowSeconds,
    failedOnly: options.failedOnly,
    excludeIds: ids,
  });
  const wait = retryAfterSeconds(counts, options.rules, options.windowSeconds);
  if (wait > 0) {
    await deleteAttempts(db, ids);
    throw new AppError('TOO_MANY_ATTEMPTS', {
      message: tooManyAttemptsMessage(wait),
      headers: { 'retry-after': String(wait) },
    });
  }
  return { succeed: () => markAttemptsSucceeded(db, ids) };
}

/**
 * Deletes attempts older than every window that reads them: the sign-in window and the known-address
 * look-back (the longest), plus a day; resets, e-mail changes and invitations look back an hour.
 */
export async function pruneOldAttempts(options: {
  db: Queryable;
  config: Pick<AppConfig, 'loginWindow'>;
}): Promise<number> {
  const keepSeconds = Math.max(options.config.loginWindow, KNOWN_ADDRESS_DAYS * 24 * 3600) + 24 * 3600;
  return pruneAttempts(options.db, keepSeconds);
}
