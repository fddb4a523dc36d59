/** The signed-in user's own account: profile, e-mail, password and sessions; helpers the other user services share. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Member, ProfileResponse, Session, User } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../../lib/crypto.ts';
import { assertPasswordAllowed } from '../../lib/password-policy.ts';
import { recordAudit } from '../audit/index.ts';
import { deleteSession, deleteUserSessions, listUserSessions, throttleAttempt } from '../auth/index.ts';
import {
  changeEmailMail,
  emailTakenMail,
  passwordChangedMail,
  queueMail,
  verifyEmailMail,
} from '../mail/index.ts';
import {
  type EmailTokenKind,
  getUserByEmail,
  getUserById,
  insertEmailToken,
  invalidateEmailTokens,
  type UserRow,
  updateUserFields,
} from './users.queries.ts';

export type MailConfig = Pick<AppConfig, 'appUrl' | 'resetTokenTtl' | 'verifyTokenTtl' | 'inviteTokenTtl'>;

export const RESET_REQUESTED_MESSAGE =
  'Если учётная запись с этим e-mail существует, мы отправили на него письмо со ссылкой для восстановления пароля';
export const RESET_WINDOW_SECONDS = 3600;
export const RESET_LIMITS = [
  { prefix: 'email:', max: 3 },
  { prefix: 'ip:', max: 20 },
];
/**
 * A reset request answers no sooner than this, whether or not the address has an account, so the
 * token and mail work done only for a known address does not show in the response time.
 */
export const RESET_MIN_RESPONSE_MS = 300;
/** The same for invitations: a new account is more work than a mail to an existing one. */
export const INVITE_MIN_RESPONSE_MS = 300;

/** E-mail changes and invitations per user and hour: each one mails an address of the caller's choice. */
export const EMAIL_CHANGE_LIMIT = 5;
export const INVITE_LIMIT = 30;
export const HOUR = 3600;

export async function answerNoSoonerThan(started: number, ms: number): Promise<void> {
  const left = ms - (performance.now() - started);
  if (left > 0) {
    await sleep(left);
  }
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role,
    isStaff: row.is_staff,
    emailVerified: row.email_verified_at !== null,
    organisation: { id: row.organisation_id, name: row.organisation_name },
    createdAt: row.created_at.toISOString(),
  };
}

export function toMember(row: UserRow): Member {
  const { organisation: _organisation, ...user } = toUser(row);
  // An invited account has no password until its invitation link is used: it cannot sign in yet.
  const status = !row.active ? 'disabled' : row.password_hash === null ? 'invited' : 'active';
  return { ...user, active: row.active, status, lastLoginAt: row.last_login_at?.toISOString() ?? null };
}

export async function requireUser(db: pg.Pool | pg.PoolClient, id: string): Promise<UserRow> {
  const user = await getUserById(db, id);
  if (!user) {
    throw new AppError('UNAUTHORIZED');
  }
  return user;
}

/** Issues a single-use e-mail token (older unused ones of the same kind stop working) and returns the raw token. */
export async function issueEmailToken(
  db: pg.PoolClient,
  options: { userId: string; kind: EmailTokenKind; email: string; ttlSeconds: number },
): Promise<string> {
  const token = generateToken();
  await invalidateEmailTokens(db, options.userId, [options.kind]);
  await insertEmailToken(db, { ...options, tokenHash: hashToken(token) });
  return token;
}

export const link = (config: MailConfig, path: string, token: string) =>
  `${config.appUrl}${path}?token=${encodeURIComponent(token)}`;

export async function getCurrentUser(options: { db: pg.Pool; auth: AuthContext }): Promise<User> {
  return toUser(await requireUser(options.db, options.auth.userId));
}

export async function getProfile(options: { db: pg.Pool; auth: AuthContext }): Promise<ProfileResponse> {
  const user = await requireUser(options.db, options.auth.userId);
  const sessions = await listUserSessions(options.db, user.id);
  return {
    user: toUser(user),
    pendingEmail: user.pending_email,
    sessions: sessions.map(
      (session): Session => ({
        id: session.id,
        createdAt: session.created_at.toISOString(),
        lastUsedAt: session.last_used_at.toISOString(),
        expiresAt: session.expires_at.toISOString(),
        userAgent: session.user_agent,
        ip: session.ip,
        current: session.id === options.auth.sessionId,
      }),
    ),
  };
}

export async function updateProfile(options: {
  db: pg.Pool;
  auth: AuthContext;
  fullName: string;
}): Promise<User> {
  await updateUserFields(options.db, options.auth.userId, { full_name: options.fullName });
  return getCurrentUser(options);
}

/**
 * Starts an e-mail change: the address changes only when the link sent to the new address is
 * opened. The answer is the same whether or not another account uses the address (that would
 * tell any user which addresses have accounts); the owner of a taken address gets a mail
 * explaining that nothing changed. Throttled per user.
 */
export async function requestEmailChange(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: MailConfig;
  auth: AuthContext;
  email: string;
}): Promise<string> {
  const { config, auth, email } = options;
  const current = await requireUser(options.db, auth.userId);
  if (current.email === email) {
    // The caller's own address: saying so reveals nothing.
    throw new AppError('CONFLICT', { message: 'Это уже ваш текущий e-mail' });
  }
  await throttleAttempt(options.db, {
    kind: 'email_change',
    keys: [`user:${auth.userId}`],
    rules: [{ prefix: 'user:', max: EMAIL_CHANGE_LIMIT }],
    windowSeconds: HOUR,
    failedOnly: false,
  });
  return withTransaction(options.db, async (tx) => {
    const user = await requireUser(tx, auth.userId);
    const owner = await getUserByEmail(tx, email);
    // The same writes on both paths; a token for a taken address is never mailed, and
    // verifyEmail refuses it anyway.
    await updateUserFields(tx, user.id, { pending_email: email });
    const token = await issueEmailToken(tx, {
      userId: user.id,
      kind: 'change_email',
      email,
      ttlSeconds: config.verifyTokenTtl,
    });
    await queueMail({
      db: tx,
      queue: options.queue,
      organisationId: user.organisation_id,
      message: owner
        ? emailTakenMail({ to: email, name: owner.full_name })
        : changeEmailMail({ to: email, name: user.full_name, url: link(config, '/verify-email', token) }),
    });
    return `Мы отправили письмо на ${email}. Адрес изменится после перехода по ссылке из письма`;
  });
}

/** Sends a fresh verification link to the current address. */
export async function sendEmailVerification(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: MailConfig;
  auth: AuthContext;
}): Promise<string> {
  return withTransaction(options.db, async (tx) => {
    const user = await requireUser(tx, options.auth.userId);
    if (user.email_verified_at) {
      return 'E-mail уже подтверждён';
    }
    const token = await issueEmailToken(tx, {
      userId: user.id,
      kind: 'verify_email',
      email: user.email,
      ttlSeconds: options.config.verifyTokenTtl,
    });
    await queueMail({
      db: tx,
      queue: options.queue,
      organisationId: user.organisation_id,
      message: verifyEmailMail({
        to: user.email,
        name: user.full_name,
        url: link(options.config, '/verify-email', token),
      }),
    });
    return `Письмо для подтверждения отправлено на ${user.email}`;
  });
}

/** Changes the password; wrong current passwords are throttled per user like sign-in guesses. */
export async function changePassword(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: Pick<AppConfig, 'loginMaxAttempts' | 'loginWindow'>;
  auth: AuthContext;
  oldPassword: string;
  newPassword: string;
}): Promise<void> {
  const { auth, config } = options;
  const user = await requireUser(options.db, auth.userId);
  const attempt = await throttleAttempt(options.db, {
    kind: 'password_change',
    keys: [`user:${user.id}`],
    rules: [{ prefix: 'user:', max: config.loginMaxAttempts }],
    windowSeconds: config.loginWindow,
    failedOnly: true,
  });
  if (!user.password_hash || !(await verifyPassword(options.oldPassword, user.password_hash))) {
    throw new AppError('WRONG_PASSWORD', {
      fieldErrors: [{ field: 'old_password', message: 'Текущий пароль указан неверно' }],
    });
  }
  await attempt.succeed();
  if (options.oldPassword === options.newPassword) {
    throw new AppError('SAME_PASSWORD', {
      fieldErrors: [{ field: 'new_password', message: 'Новый пароль должен отличаться от текущего' }],
    });
  }
  assertPasswordAllowed(options.newPassword, { email: user.email, fullName: user.full_name });
  const passwordHash = await hashPassword(options.newPassword);
  await withTransaction(options.db, async (tx) => {
    await updateUserFields(tx, user.id, { password_hash: passwordHash });
    // A changed password must lock out whoever else might hold a session.
    await deleteUserSessions(tx, user.id, auth.sessionId);
    await invalidateEmailTokens(tx, user.id, ['reset_password']);
    await recordAudit(tx, {
      organisationId: user.organisation_id,
      userId: user.id,
      action: 'password.changed',
      entity: 'user',
      entityId: user.id,
    });
    await queueMail({
      db: tx,
      queue: options.queue,
      organisationId: user.organisation_id,
      message: passwordChangedMail({ to: user.email, name: user.full_name }),
    });
  });
}

export async function endSession(options: {
  db: pg.Pool;
  auth: AuthContext;
  sessionId: string;
}): Promise<void> {
  const removed = await deleteSession(options.db, {
    sessionId: options.sessionId,
    userId: options.auth.userId,
  });
  if (removed === 0) {
    throw new AppError('NOT_FOUND', { message: 'Сеанс не найден' });
  }
}

export async function endOtherSessions(options: { db: pg.Pool; auth: AuthContext }): Promise<number> {
  return deleteUserSessions(options.db, options.auth.userId, options.auth.sessionId);
}
