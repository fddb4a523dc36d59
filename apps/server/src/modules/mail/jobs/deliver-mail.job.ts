import { z } from 'zod';
import { retryOnConnectionLoss } from '../../../db/pool.ts';
import { defineJob } from '../../../jobs/job-definition.ts';
import { recordMailDelivery } from '../../../lib/metrics.ts';
import { getOutboxMail, markOutboxMail } from '../mail.queries.ts';

export const deliverMailJob = defineJob({
  name: 'mail.deliver',
  payload: z.object({ mailId: z.string().uuid() }),
  queue: { retryLimit: 6, retryDelay: 15, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  async handler(job, { db, mailer }) {
    const mail = await getOutboxMail(db, job.data.mailId);
    // Only queued mail is sent: a retried or duplicated job never sends twice.
    if (mail?.status !== 'queued') {
      return;
    }
    if (!mailer.smtpEnabled) {
      await markOutboxMail(db, mail.id, { status: 'stored' });
      recordMailDelivery('kept');
      return;
    }
    try {
      await mailer.send({
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
    } catch (error) {
      recordMailDelivery('failed');
      const lastTry = job.retryCount >= job.retryLimit;
      await markOutboxMail(db, mail.id, {
        status: lastTry ? 'failed' : 'queued',
        error: (error as Error).message,
      });
      throw error;
    }
    recordMailDelivery('sent');
    // The mail has left: a database that is down for a moment must not make the retry send it again.
    await retryOnConnectionLoss(() => markOutboxMail(db, mail.id, { status: 'sent' }), { timeoutMs: 90_000 });
  },
});
