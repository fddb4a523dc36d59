/** The organisation's members: listing, inviting and changing them (admins only). */
import type { InviteUserBody, Member, Role } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { changedFields, recordAudit } from '../audit/index.ts';
import { deleteUserSessions, throttleAttempt } from '../auth/index.ts';
import { inviteMail, inviteTakenMail, queueMail } from '../mail/index.ts';
import {
  countActiveAdmins,
  findMembers as findMemberRows,
  getUserByEmail,
  getUserById,
  insertUser,
  updateUserFields,
} from './users.queries.ts';
import {
  answerNoSoonerThan,
  HOUR,
  INVITE_LIMIT,
  INVITE_MIN_RESPONSE_MS,
  issueEmailToken,
  link,
  requireUser,
  toMember,
} from './users.service.ts';

type MailConfig = Pick<AppConfig, 'appUrl' | 'resetTokenTtl' | 'verifyTokenTtl' | 'inviteTokenTtl'>;

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
    if (!member || member.organisation_id !== auth.organisationId || member.service_account) {
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
