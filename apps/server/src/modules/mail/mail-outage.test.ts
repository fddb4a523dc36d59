import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../lib/mailer.ts';
import { startSmtpSink } from '../../testing/smtp-sink.ts';
import { buildTestApp } from '../../testing/test-app.ts';
import { deliverMailJob } from './jobs/deliver-mail.job.ts';
import { getOutboxMail, insertOutboxMail } from './mail.queries.ts';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
const { app, config } = await buildTestApp();

describe('mail delivery while PostgreSQL drops out', () => {
  it('a mail sent just before the database went away is recorded once it is back, not sent again', async () => {
    const to = `outage-${Date.now()}@test.ru`;
    const id = await insertOutboxMail(app.db, {
      organisationId: null,
      to,
      subject: 'Тема',
      text: 'Текст',
      html: '<p>Текст</p>',
    });
    // Reading the mail works; the database is gone for the next two statements (the "sent" mark).
    let failures = 0;
    const flaky = {
      query: (...args: Parameters<pg.Pool['query']>) => {
        if (/UPDATE mail_outbox/i.test(String(args[0])) && failures < 2) {
          failures++;
          return Promise.reject(
            Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
          );
        }
        return app.db.query(...args);
      },
    } as unknown as pg.Pool;
    const mailer = createMailer({ smtpUrl: smtp.url, from: config.mailFrom });
    const context = { db: flaky, config, mailer, queue: app.queue, log: app.log };
    const run = { id: 'job', data: { mailId: id }, retryCount: 0, retryLimit: 6 };
    await deliverMailJob.handler(run, context);
    expect(failures).toBe(2);
    expect((await getOutboxMail(app.db, id))?.status).toBe('sent');
    // The queue's retry (had the job been failed meanwhile) finds it sent.
    await deliverMailJob.handler({ ...run, retryCount: 1 }, { ...context, db: app.db });
    expect(smtp.mails.filter((mail) => mail.to.includes(to))).toHaveLength(1);
  });
});
