import type { Queryable } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import type { MailMessage } from '../../lib/mailer.ts';
import { deliverMailJob } from './jobs/deliver-mail.job.ts';
import { insertOutboxMail } from './mail.queries.ts';

/**
 * Writes the mail to the outbox and enqueues its delivery in the same transaction (`db`), so a
 * mail exists if and only if the change that caused it was committed.
 */
export async function queueMail(options: {
  db: Queryable;
  queue: JobQueue;
  organisationId: string | null;
  message: MailMessage;
}): Promise<string> {
  const id = await insertOutboxMail(options.db, {
    organisationId: options.organisationId,
    ...options.message,
  });
  await options.queue.send(deliverMailJob, { mailId: id }, { db: options.db });
  return id;
}
