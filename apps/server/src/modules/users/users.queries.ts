import type { Role } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { containsPattern } from '../../lib/like-pattern.ts';

export interface UserRow {
  id: string;
  organisation_id: string;
  organisation_name: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  role: Role;
  is_staff: boolean;
  email_verified_at: Date | null;
  pending_email: string | null;
  active: boolean;
  last_login_at: Date | null;
  created_at: Date;
  /** An API key's account (modules/api-keys): managed through its key, never as a member. */
  service_account: boolean;
}

const USER_COLUMNS = `u.id, u.organisation_id, o.name AS organisation_name, u.email, u.full_name, u.password_hash,
  u.role, u.is_staff, u.email_verified_at, u.pending_email, u.active, u.last_login_at, u.created_at, u.service_account`;

export async function getUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE u.id = $1`,
    [id],
  );
  return rows[0];
}

export async function getUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    // An API key's service account is nobody's e-mail: never found for a reset or an invitation.
    `SELECT ${USER_COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id
      WHERE u.email = $1 AND NOT u.service_account`,
    [email.toLowerCase()],
  );
  return rows[0];
}

export async function insertUser(
  db: Queryable,
  user: {
    organisationId: string;
    email: string;
    fullName: string;
    role: Role;
    passwordHash: string | null;
    isStaff?: boolean;
    emailVerified?: boolean;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (organisation_id, email, full_name, role, password_hash, is_staff, email_verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7 THEN now() END) RETURNING id`,
    [
      user.organisationId,
      user.email.toLowerCase(),
      user.fullName,
      user.role,
      user.passwordHash,
      user.isStaff ?? false,
      user.emailVerified ?? false,
    ],
  );
  return rows[0]!.id;
}

export async function updateUserFields(
  db: Queryable,
  id: string,
  fields: Partial<{
    full_name: string;
    password_hash: string;
    email: string;
    pending_email: string | null;
    email_verified_at: Date | null;
    role: Role;
    active: boolean;
    last_login_at: Date;
  }>,
): Promise<void> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0) {
    return;
  }
  // Column names come from the typed keys above, never from input.
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  await db.query(`UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
    id,
    ...entries.map(([, value]) => value),
  ]);
}

export async function findMembers(
  db: Queryable,
  filter: { organisationId: string; search?: string; limit: number; offset: number },
): Promise<{ items: UserRow[]; total: number }> {
  const search = filter.search ? containsPattern(filter.search.toLowerCase()) : null;
  const where = `u.organisation_id = $1 AND NOT u.service_account AND ($2::text IS NULL OR u.email LIKE $2 OR lower(u.full_name) LIKE $2)`;
  const [items, total] = await Promise.all([
    db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id
        WHERE ${where} ORDER BY u.created_at, u.id LIMIT $3 OFFSET $4`,
      [filter.organisationId, search, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(`SELECT count(*) AS count FROM users u WHERE ${where}`, [
      filter.organisationId,
      search,
    ]),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

export async function countActiveAdmins(db: Queryable, organisationId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*) AS count FROM users
      WHERE organisation_id = $1 AND role = 'admin' AND active AND NOT service_account`,
    [organisationId],
  );
  return rows[0]!.count;
}

export type EmailTokenKind = 'verify_email' | 'change_email' | 'reset_password' | 'invite';

export async function insertEmailToken(
  db: Queryable,
  token: { userId: string; kind: EmailTokenKind; tokenHash: string; email: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO email_tokens (user_id, kind, token_hash, email, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [token.userId, token.kind, token.tokenHash, token.email, token.ttlSeconds],
  );
}

export interface EmailTokenRow {
  id: string;
  user_id: string;
  kind: EmailTokenKind;
  email: string;
  expires_at: Date;
  used_at: Date | null;
  expired: boolean;
}

/** Locks the token row so two concurrent uses cannot both succeed. */
export async function lockEmailToken(db: Queryable, tokenHash: string): Promise<EmailTokenRow | undefined> {
  const { rows } = await db.query<EmailTokenRow>(
    `SELECT id, user_id, kind, email, expires_at, used_at, expires_at < now() AS expired
       FROM email_tokens WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  return rows[0];
}

export async function markEmailTokenUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE email_tokens SET used_at = now() WHERE id = $1', [id]);
}

/** A new link of a kind cancels the older unused ones. */
export async function invalidateEmailTokens(
  db: Queryable,
  userId: string,
  kinds: EmailTokenKind[],
): Promise<void> {
  await db.query(
    'UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND kind = ANY($2) AND used_at IS NULL',
    [userId, kinds],
  );
}
