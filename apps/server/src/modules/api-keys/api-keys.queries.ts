import type { Role } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

export interface ApiKeyRow {
  id: string;
  organisation_id: string;
  user_id: string;
  name: string;
  role: Role;
  prefix: string;
  rate_limit_per_minute: number;
  created_at: Date;
  created_by_name: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = `k.id, k.organisation_id, k.user_id, k.name, k.role, k.prefix, k.rate_limit_per_minute, k.created_at,
  (SELECT full_name FROM users c WHERE c.id = k.created_by) AS created_by_name, k.expires_at, k.last_used_at, k.revoked_at`;

/**
 * The key's service account: a user of the organisation that cannot sign in (no password, an address
 * no mail reaches, excluded from sign-in, reset and the users list), named after the key so the audit
 * log and every «created by» show the key.
 */
export async function insertServiceAccount(
  db: Queryable,
  account: { organisationId: string; keyId: string; fullName: string; role: Role },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (organisation_id, email, full_name, role, password_hash, service_account)
     VALUES ($1, $2, $3, $4, NULL, true) RETURNING id`,
    [account.organisationId, `api-key-${account.keyId}@service.invalid`, account.fullName, account.role],
  );
  return rows[0]!.id;
}

export async function insertApiKey(
  db: Queryable,
  key: {
    id: string;
    organisationId: string;
    userId: string;
    name: string;
    role: Role;
    prefix: string;
    secretHash: string;
    rateLimitPerMinute: number;
    createdBy: string;
    expiresAt: Date | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO api_keys (id, organisation_id, user_id, name, role, prefix, secret_hash, rate_limit_per_minute,
                           created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      key.id,
      key.organisationId,
      key.userId,
      key.name,
      key.role,
      key.prefix,
      key.secretHash,
      key.rateLimitPerMinute,
      key.createdBy,
      key.expiresAt,
    ],
  );
}

export async function listApiKeys(db: Queryable, organisationId: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys k WHERE k.organisation_id = $1 ORDER BY k.created_at DESC, k.id`,
    [organisationId],
  );
  return rows;
}

export async function getApiKey(
  db: Queryable,
  organisationId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys k WHERE k.organisation_id = $1 AND k.id = $2`,
    [organisationId, id],
  );
  return rows[0];
}

/** Revokes a key and switches its service account off, in one statement; undefined when not found. */
export async function revokeApiKey(
  db: Queryable,
  options: { organisationId: string; id: string; revokedBy: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), revoked_by = coalesce(revoked_by, $3)
        WHERE organisation_id = $1 AND id = $2 RETURNING user_id)
     UPDATE users SET active = false, updated_at = now() WHERE id IN (SELECT user_id FROM revoked)`,
    [options.organisationId, options.id, options.revokedBy],
  );
  return (rowCount ?? 0) > 0;
}

export interface ActiveKeyRow {
  id: string;
  user_id: string;
  organisation_id: string;
  role: Role;
  rate_limit_per_minute: number;
  last_used_at: Date | null;
}

/** A live key by its secret's hash: not revoked, not expired, its service account active. */
export async function findActiveKeyByHash(
  db: Queryable,
  secretHash: string,
): Promise<ActiveKeyRow | undefined> {
  const { rows } = await db.query<ActiveKeyRow>(
    `SELECT k.id, k.user_id, k.organisation_id, k.role, k.rate_limit_per_minute, k.last_used_at
       FROM api_keys k JOIN users u ON u.id = k.user_id AND u.active AND u.organisation_id = k.organisation_id
      WHERE k.secret_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
    [secretHash],
  );
  return rows[0];
}

export async function stampKeyUse(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [id]);
}
