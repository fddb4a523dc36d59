import { setTimeout as sleep } from 'node:timers/promises';
import type { InviteUserBody, Member, ProfileResponse, Role, Session, User } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../../lib/crypto.ts';
import { assertPasswordAllowed } from '../../lib/password-policy.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.queries.ts';
import { changedFields } from '../audit/audit-changes.ts';
import { deleteSession, deleteUserSessions, listUserSessions } from '../auth/auth.queries.ts';
import { throttleAttempt } from '../auth/auth.service.ts';
import { throttleAddress } from '../auth/rate-limit.ts';
import { queueMail } from '../mail/mail.service.ts';
import {
  changeEmailMail,
  emailTakenMail,
  inviteMail,
  inviteTakenMail,
  passwordChangedMail,
  resetPasswordMail,
  verifyEmailMail,
} from '../mail/mail.templates.ts';
import {
  countActiveAdmins,
  type EmailTokenKind,
  findMembers as findMemberRows,
  getUserByEmail,
  getUserById,
  insertEmailToken,
  insertUser,
  invalidateEmailTokens,
  lockEmailToken,
  markEmailTokenUsed,
  type UserRow,
  updateUserFields,
} from './users.queries.ts';

type MailConfig = Pick<AppConfig, 'appUrl' | 'resetTokenTtl' | 'verifyTokenTtl' | 'inviteTokenTtl'>;

export const RESET_REQUESTED_MESSAGE =
  'Если учётная запись с этим e-mail существует, мы отправили на него письмо со ссылкой для восстановления пароля';
const RESET_WINDOW_SECONDS = 3600;
const RESET_LIMITS = [
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
const EMAIL_CHANGE_LIMIT = 5;
const INVITE_LIMIT = 30;
const HOUR = 3600;

async function answerNoSoonerThan(started: number, ms: number): Promise<void> {
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

function toMember(row: UserRow): Member {
  const { organisation: _organisation, ...user } = toUser(row);
  // An invited account has no password until its invitation link is used: it cannot sign in yet.
  const status = !row.active ? 'disabled' : row.password_hash === null ? 'invited' : 'active';
  return { ...user, active: row.active, status, lastLoginAt: row.last_login_at?.toISOString() ?? null };
}

async function requireUser(db: pg.Pool | pg.PoolClient, id: string): Promise<UserRow> {
  const user = await getUserById(db, id);
  if (!user) {
    throw new AppError('UNAUTHORIZED');
  }
  return user;
}

/** Issues a single-use e-mail token (older unused ones of the same kind stop working) and returns the raw token. */
async function issueEmailToken(
  db: pg.PoolClient,
  options: { userId: string; kind: EmailTokenKind; email: string; ttlSeconds: number },
): Promise<string> {
  const token = generateToken();
  await invalidateEmailTokens(db, options.userId, [options.kind]);
  await insertEmailToken(db, { ...options, tokenHash: hashToken(token) });
  return token;
}

const link = (config: MailConfig, path: string, token: string) =>
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

/**
 * Same answer whether or not the account exists, and no sooner than RESET_MIN_RESPONSE_MS, so
 * neither the words nor the time tell; throttled per address and per IP.
 */
export async function requestPasswordReset(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: MailConfig;
  email: string;
  ip: string | null;
}): Promise<string> {
  const { db, config, email } = options;
  const started = performance.now();
  await throttleAttempt(db, {
    kind: 'reset',
    keys: [`email:${email}`, ...(options.ip ? [`ip:${throttleAddress(options.ip)}`] : [])],
    rules: RESET_LIMITS,
    windowSeconds: RESET_WINDOW_SECONDS,
    failedOnly: false,
  });
  await withTransaction(db, async (tx) => {
    const user = await getUserByEmail(tx, email);
    if (!user?.active) {
      return;
    }
    const token = await issueEmailToken(tx, {
      userId: user.id,
      kind: 'reset_password',
      email: user.email,
      ttlSeconds: config.resetTokenTtl,
    });
    await queueMail({
      db: tx,
      queue: options.queue,
      organisationId: user.organisation_id,
      message: resetPasswordMail({
        to: user.email,
        name: user.full_name,
        url: link(config, '/reset-password', token),
        ttlMinutes: Math.round(config.resetTokenTtl / 60),
      }),
    });
  });
  await answerNoSoonerThan(started, RESET_MIN_RESPONSE_MS);
  return RESET_REQUESTED_MESSAGE;
}

async function consumeToken(tx: pg.PoolClient, token: string, kinds: EmailTokenKind[]) {
  const row = await lockEmailToken(tx, hashToken(token));
  if (!row || !kinds.includes(row.kind) || row.used_at) {
    throw new AppError('TOKEN_INVALID');
  }
  if (row.expired) {
    throw new AppError('TOKEN_EXPIRED');
  }
  await markEmailTokenUsed(tx, row.id);
  return row;
}

/** Sets a new password from a reset or invite link; the link works once, and all sessions end. */
export async function confirmPasswordReset(options: {
  db: pg.Pool;
  token: string;
  newPassword: string;
}): Promise<void> {
  await withTransaction(options.db, async (tx) => {
    const token = await consumeToken(tx, options.token, ['reset_password', 'invite']);
    const user = await requireUser(tx, token.user_id);
    // A refused password rolls the transaction back, so the link still works for a better one.
    assertPasswordAllowed(options.newPassword, { email: user.email, fullName: user.full_name });
    const passwordHash = await hashPassword(options.newPassword);
    await updateUserFields(tx, user.id, {
      password_hash: passwordHash,
      // The link arrived at this address, which proves the mailbox.
      email_verified_at: user.email_verified_at ?? (user.email === token.email ? new Date() : null),
    });
    await deleteUserSessions(tx, user.id);
    await recordAudit(tx, {
      organisationId: user.organisation_id,
      userId: user.id,
      action: token.kind === 'invite' ? 'invite.accepted' : 'password.reset',
      entity: 'user',
      entityId: user.id,
    });
  });
}

/** Confirms the current address, or a pending new address (which then becomes the login). */
export async function verifyEmail(options: { db: pg.Pool; token: string }): Promise<string> {
  return withTransaction(options.db, async (tx) => {
    const token = await consumeToken(tx, options.token, ['verify_email', 'change_email']);
    const user = await requireUser(tx, token.user_id);
    if (token.kind === 'change_email') {
      const owner = await getUserByEmail(tx, token.email);
      if (owner && owner.id !== user.id) {
        throw new AppError('EMAIL_TAKEN');
      }
      await updateUserFields(tx, user.id, {
        email: token.email,
        pending_email: null,
        email_verified_at: new Date(),
      });
      await recordAudit(tx, {
        organisationId: user.organisation_id,
        userId: user.id,
        action: 'email.changed',
        entity: 'user',
        entityId: user.id,
        details: { from: user.email, to: token.email },
      });
      return `E-mail изменён на ${token.email}`;
    }
    if (token.email !== user.email) {
      throw new AppError('TOKEN_INVALID');
    }
    await updateUserFields(tx, user.id, { email_verified_at: user.email_verified_at ?? new Date() });
    return 'E-mail подтверждён';
  });
}

export async function findMembers(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
  search?: string;
}): Promise<{ items: Member[]; total: number }> {
  const { items, total } = await findMemberRows(options.db, {
    organisationId: options.auth.organisationId,
    search: options.search,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toMember), total };
}

/**
 * An admin adds a colleague: the account has no password until the invite link is used. An
 * address with an account in another organisation gets the same answer (saying "taken" would
 * tell which addresses have accounts elsewhere) and a mail explaining why no account was made.
 * A member of the admin's own organisation is a plain conflict: the admin sees them anyway.
 * Throttled per admin.
 */
export async function inviteUser(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: MailConfig;
  auth: AuthContext;
  invite: InviteUserBody;
}): Promise<string> {
  const { auth, invite, config } = options;
  const started = performance.now();
  const existing = await getUserByEmail(options.db, invite.email);
  if (existing && existing.organisation_id === auth.organisationId) {
    throw new AppError('EMAIL_TAKEN', {
      message: 'Пользователь с таким e-mail уже есть в вашей организации',
      fieldErrors: [{ field: 'email', message: 'Пользователь с таким e-mail уже есть в вашей организации' }],
    });
  }
  await throttleAttempt(options.db, {
    kind: 'invite',
    keys: [`user:${auth.userId}`],
    rules: [{ prefix: 'user:', max: INVITE_LIMIT }],
    windowSeconds: HOUR,
    failedOnly: false,
  });
  await withTransaction(options.db, async (tx) => {
    const inviter = await requireUser(tx, auth.userId);
    const owner = await getUserByEmail(tx, invite.email);
    if (owner) {
      await queueMail({
        db: tx,
        queue: options.queue,
        organisationId: auth.organisationId,
        message: inviteTakenMail({
          to: invite.email,
          name: owner.full_name,
          organisation: inviter.organisation_name,
          inviter: inviter.full_name,
        }),
      });
      await recordAudit(tx, {
        organisationId: auth.organisationId,
        userId: auth.userId,
        action: 'user.invite_existing',
        entity: 'user',
        details: { email: invite.email, role: invite.role },
      });
      return;
    }
    const id = await insertUser(tx, {
      organisationId: auth.organisationId,
      email: invite.email,
      fullName: invite.fullName,
      role: invite.role,
      passwordHash: null,
    });
    const token = await issueEmailToken(tx, {
      userId: id,
      kind: 'invite',
      email: invite.email,
      ttlSeconds: config.inviteTokenTtl,
    });
    await queueMail({
      db: tx,
      queue: options.queue,
      organisationId: auth.organisationId,
      message: inviteMail({
        to: invite.email,
        name: invite.fullName,
        organisation: inviter.organisation_name,
        inviter: inviter.full_name,
        url: `${link(config, '/reset-password', token)}&invite=1`,
      }),
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'user.invited',
      entity: 'user',
      entityId: id,
      details: { email: invite.email, role: invite.role },
    });
  });
  await answerNoSoonerThan(started, INVITE_MIN_RESPONSE_MS);
  return `Мы отправили приглашение на ${invite.email}`;
}

export async function updateMember(options: {
  db: pg.Pool;
  auth: AuthContext;
  memberId: string;
  role?: Role;
  active?: boolean;
}): Promise<Member> {
  const { auth } = options;
  return withTransaction(options.db, async (tx) => {
    const member = await getUserById(tx, options.memberId);
    // Another organisation's user is reported as missing, not as forbidden.
    if (!member || member.organisation_id !== auth.organisationId) {
      throw new AppError('NOT_FOUND', { message: 'Пользователь не найден' });
    }
    const losesAdmin =
      member.role === 'admin' &&
      member.active &&
      ((options.role && options.role !== 'admin') || options.active === false);
    if (losesAdmin && (await countActiveAdmins(tx, auth.organisationId)) <= 1) {
      throw new AppError('CONFLICT', { message: 'В организации должен остаться хотя бы один администратор' });
    }
    await updateUserFields(tx, member.id, { role: options.role, active: options.active });
    if (options.active === false) {
      await deleteUserSessions(tx, member.id);
    }
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'user.updated',
      entity: 'user',
      entityId: member.id,
      details: {
        email: member.email,
        changes: changedFields(
          { role: member.role, active: member.active },
          { role: options.role, active: options.active },
        ),
      },
    });
    return toMember((await getUserById(tx, member.id))!);
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
