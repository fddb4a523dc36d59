/** Mailed single-use tokens: password reset and e-mail verification. */
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, hashToken } from '../../lib/crypto.ts';
import { assertPasswordAllowed } from '../../lib/password-policy.ts';
import { recordAudit } from '../audit/index.ts';
import { deleteUserSessions, throttleAddress, throttleAttempt } from '../auth/index.ts';
import { queueMail, resetPasswordMail } from '../mail/index.ts';
import {
  type EmailTokenKind,
  getUserByEmail,
  lockEmailToken,
  markEmailTokenUsed,
  updateUserFields,
} from './users.queries.ts';
import {
  answerNoSoonerThan,
  issueEmailToken,
  link,
  RESET_LIMITS,
  RESET_MIN_RESPONSE_MS,
  RESET_REQUESTED_MESSAGE,
  RESET_WINDOW_SECONDS,
  requireUser,
} from './users.service.ts';

type MailConfig = Pick<AppConfig, 'appUrl' | 'resetTokenTtl' | 'verifyTokenTtl' | 'inviteTokenTtl'>;

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
