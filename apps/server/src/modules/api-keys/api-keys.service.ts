import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_DEFAULT_RATE_LIMIT,
  API_KEY_PREFIX,
  type ApiKey,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@pledgewatch/contract';
import type pg from 'pg';
import { type Queryable, withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { hashToken } from '../../lib/crypto.ts';
import { moscowDate, moscowInstant } from '../../lib/moscow-time.ts';
import { recordAudit } from '../audit/index.ts';
import {
  type ApiKeyRow,
  findActiveKeyByHash,
  getApiKey,
  insertApiKey,
  insertServiceAccount,
  listApiKeys,
  revokeApiKey as revokeApiKeyRow,
  stampKeyUse,
} from './api-keys.queries.ts';

/** Longest string that can be a key: anything longer is refused before it is hashed. */
const MAX_KEY_LENGTH = 100;
/** The last use is written at most this often per key: a busy integration does not write per request. */
const LAST_USE_PRECISION_MS = 60_000;

export function toApiKey(row: ApiKeyRow, now = new Date()): ApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by_name,
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    status: row.revoked_at ? 'revoked' : row.expires_at && row.expires_at <= now ? 'expired' : 'active',
  };
}

export async function findApiKeys(options: {
  db: Queryable;
  auth: AuthContext;
}): Promise<{ items: ApiKey[] }> {
  const rows = await listApiKeys(options.db, options.auth.organisationId);
  return { items: rows.map((row) => toApiKey(row)) };
}

/** A new key: the secret is returned once and only its hash is kept. */
export async function createApiKey(options: {
  db: pg.Pool;
  auth: AuthContext;
  body: CreateApiKeyBody;
}): Promise<CreatedApiKey> {
  const { db, auth, body } = options;
  let expiresAt: Date | null = null;
  if (body.expiresOn) {
    if (body.expiresOn < moscowDate(new Date())) {
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'expiresOn', message: 'Срок действия не может закончиться в прошлом' }],
      });
    }
    // Valid through the whole last day, Moscow time.
    expiresAt = new Date(moscowInstant(body.expiresOn).getTime() + 24 * 3600 * 1000);
  }
  const id = randomUUID();
  const secret = `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return withTransaction(db, async (tx) => {
    const userId = await insertServiceAccount(tx, {
      organisationId: auth.organisationId,
      keyId: id,
      fullName: `Ключ API «${body.name}»`,
      role: body.role,
    });
    await insertApiKey(tx, {
      id,
      organisationId: auth.organisationId,
      userId,
      name: body.name,
      role: body.role,
      prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
      secretHash: hashToken(secret),
      rateLimitPerMinute: body.rateLimitPerMinute ?? API_KEY_DEFAULT_RATE_LIMIT,
      createdBy: auth.userId,
      expiresAt,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'api_key.created',
      entity: 'api_key',
      entityId: id,
      details: { name: body.name, role: body.role, expiresOn: body.expiresOn ?? null },
    });
    const row = await getApiKey(tx, auth.organisationId, id);
    return { ...toApiKey(row!), secret };
  });
}

export async function revokeApiKey(options: { db: pg.Pool; auth: AuthContext; id: string }): Promise<ApiKey> {
  const { db, auth, id } = options;
  return withTransaction(db, async (tx) => {
    if (!(await revokeApiKeyRow(tx, { organisationId: auth.organisationId, id, revokedBy: auth.userId }))) {
      throw new AppError('NOT_FOUND', { message: 'Ключ API не найден' });
    }
    const row = (await getApiKey(tx, auth.organisationId, id))!;
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'api_key.revoked',
      entity: 'api_key',
      entityId: id,
      details: { name: row.name },
    });
    return toApiKey(row);
  });
}

/**
 * The caller behind an `Authorization: Bearer pwk_…` header, or null for any key that is not live
 * (unknown, revoked, expired, malformed): the caller learns nothing about which.
 */
export async function authenticateApiKey(options: {
  db: Queryable;
  token: string;
}): Promise<AuthContext | null> {
  const { db, token } = options;
  if (!token.startsWith(API_KEY_PREFIX) || token.length > MAX_KEY_LENGTH) {
    return null;
  }
  const key = await findActiveKeyByHash(db, hashToken(token));
  if (!key) {
    return null;
  }
  if (!key.last_used_at || Date.now() - key.last_used_at.getTime() > LAST_USE_PRECISION_MS) {
    await stampKeyUse(db, key.id);
  }
  return {
    sessionId: '',
    userId: key.user_id,
    organisationId: key.organisation_id,
    role: key.role,
    isStaff: false,
    apiKey: { id: key.id, rateLimitPerMinute: key.rate_limit_per_minute },
  };
}
