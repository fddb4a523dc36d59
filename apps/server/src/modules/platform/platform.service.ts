import type { OutboxMail } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { findOutboxMails } from '../mail/mail.queries.ts';

export async function findOutbox(options: {
  db: Queryable;
  page: number;
  pageSize: number;
  to?: string;
}): Promise<{ items: OutboxMail[]; total: number }> {
  const { items, total } = await findOutboxMails(options.db, {
    to: options.to,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return {
    total,
    items: items.map((row) => ({
      id: row.id,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: row.created_at.toISOString(),
      sentAt: row.sent_at?.toISOString() ?? null,
    })),
  };
}
