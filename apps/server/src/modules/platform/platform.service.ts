import type { OutboxMail } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { findOutboxMails } from '../mail/index.ts';

/**
 * Links in mails carry single-use secrets (password reset, invitation, e-mail confirmation): whoever
 * has the link owns the account. Staff see what was sent, not the secret; SMTP still gets the mail whole.
 * Matches `token=` in any query string, plain or HTML-escaped (`&amp;token=`, `&#38;token=`).
 */
const TOKEN_IN_LINK = /([?&;]token=)[^&\s"'<>#]+/gi;
export const REDACTED = '[скрыто]';

export const redactTokens = (text: string): string => text.replace(TOKEN_IN_LINK, `$1${REDACTED}`);

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
      subject: redactTokens(row.subject),
      text: redactTokens(row.text_body),
      html: redactTokens(row.html_body),
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: row.created_at.toISOString(),
      sentAt: row.sent_at?.toISOString() ?? null,
    })),
  };
}
