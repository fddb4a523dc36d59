import type { Queryable } from '../db/pool.ts';

/** How long a key's first answer is replayed. */
const KEEP = '24 hours';
/** A reservation whose request never finished (its process died) is taken over after this. */
const ABANDONED = '10 minutes';

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'replay'; status: number; body: string; contentType: string | null }
  | { kind: 'different' }
  | { kind: 'in_progress' };

/**
 * Takes the key for this request, or says what the earlier request with it left: its answer, a
 * different request, or one still running. Old and abandoned rows are replaced in the same statement.
 */
export async function reserveIdempotentRequest(db: Queryable, request: KeyRequest): Promise<Reservation> {
  // A statement whose insert waited for a concurrent request's reservation of the same key sees that
  // row neither as its insert (DO NOTHING) nor in its snapshot (taken before the other committed):
  // run it again, with a new snapshot, to read it. A request is never told 'reserved' on no row.
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await reserveOnce(db, request);
    if (row) {
      return reservationOf(row, request.requestHash);
    }
  }
  return { kind: 'in_progress' };
}

interface KeyRequest {
  organisationId: string;
  key: string;
  method: string;
  route: string;
  requestHash: string;
}

interface KeyRow {
  inserted: boolean;
  request_hash: string;
  status: number | null;
  response_body: string | null;
  content_type: string | null;
}

async function reserveOnce(db: Queryable, request: KeyRequest): Promise<KeyRow | undefined> {
  const { rows } = await db.query<KeyRow>(
    `WITH stale AS (
       DELETE FROM idempotency_keys
        WHERE organisation_id = $1 AND key = $2
          AND (created_at < now() - interval '${KEEP}' OR (status IS NULL AND created_at < now() - interval '${ABANDONED}'))),
     taken AS (
       INSERT INTO idempotency_keys (organisation_id, key, method, route, request_hash)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organisation_id, key) DO NOTHING
       RETURNING true AS inserted, request_hash, status, response_body, content_type)
     SELECT * FROM taken
     UNION ALL
     SELECT false, request_hash, status, response_body, content_type FROM idempotency_keys
      WHERE organisation_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM taken)`,
    [request.organisationId, request.key, request.method, request.route, request.requestHash],
  );
  return rows[0];
}

function reservationOf(row: KeyRow, requestHash: string): Reservation {
  if (row.inserted) {
    return { kind: 'reserved' };
  }
  if (row.request_hash !== requestHash) {
    return { kind: 'different' };
  }
  if (row.status === null) {
    return { kind: 'in_progress' };
  }
  return { kind: 'replay', status: row.status, body: row.response_body ?? '', contentType: row.content_type };
}

export async function completeIdempotentRequest(
  db: Queryable,
  done: { organisationId: string; key: string; status: number; body: string; contentType: string },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status = $3, response_body = $4, content_type = $5
      WHERE organisation_id = $1 AND key = $2`,
    [done.organisationId, done.key, done.status, done.body, done.contentType || null],
  );
  // Keys older than a day are no longer answered: drop them now and then (cheap, indexed).
  if (Math.random() < 0.01) {
    await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '${KEEP}'`);
  }
}

export async function forgetIdempotentRequest(
  db: Queryable,
  held: { organisationId: string; key: string },
): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE organisation_id = $1 AND key = $2 AND status IS NULL', [
    held.organisationId,
    held.key,
  ]);
}
