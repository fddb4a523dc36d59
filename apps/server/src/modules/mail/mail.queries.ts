import type { Queryable } from '../../db/pool.ts';
import { containsPattern } from '../../lib/like-pattern.ts';

export interface OutboxRow {
  id: string;
  organisation_id: string | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: 'queued' | 'sent' | 'stored' | 'failed';
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export async function insertOutboxMail(
  db: Queryable,
  mail: { organisationId: string | null; to: string; subject: string; text: string; html: string },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO mail_outbox (organisation_id, to_address, subject, text_body, html_body)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [mail.organisationId, mail.to, mail.subject, mail.text, mail.html],
  );
  return rows[0]!.id;
}

export async function getOutboxMail(db: Queryable, id: string): Promise<OutboxRow | undefined> {
  const { rows } = await db.query<OutboxRow>('SELECT * FROM mail_outbox WHERE id = $1', [id]);
  return rows[0];
}

export async function markOutboxMail(
  db: Queryable,
  id: string,
  update: { status: OutboxRow['status']; error?: string | null },
): Promise<void> {
  await db.query(
    `UPDATE mail_outbox
        SET status = $2,
            attempts = attempts + 1,
            last_error = $3,
            sent_at = CASE WHEN $2 IN ('sent', 'stored') THEN now() ELSE sent_at END
      WHERE id = $1`,
    [id, update.status, update.error ?? null],
  );
}

export async function findOutboxMails(
  db: Queryable,
  filter: { to?: string; limit: number; offset: number },
): Promise<{ items: OutboxRow[]; total: number }> {
  const to = filter.to ? containsPattern(filter.to.toLowerCase()) : null;
  const [items, total] = await Promise.all([
    db.query<OutboxRow>(
      `SELECT * FROM mail_outbox WHERE ($1::text IS NULL OR to_address LIKE $1)
        ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [to, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(
      'SELECT count(*) AS count FROM mail_outbox WHERE ($1::text IS NULL OR to_address LIKE $1)',
      [to],
    ),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}
