import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../lib/mailer.ts';
import { startSmtpSink } from '../../testing/smtp-sink.ts';
import { buildTestApp, createSignedInUser } from '../../testing/test-app.ts';
import { deliverMailJob } from './jobs/deliver-mail.job.ts';
import { getOutboxMail, insertOutboxMail } from './mail.queries.ts';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
const { app, config } = await buildTestApp({ config: { smtpUrl: smtp.url }, runWorkers: true });

describe('mail delivery', () => {
  it('delivers a reset mail through SMTP in Russian with a working link, and marks it sent', async () => {
    const user = await createSignedInUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/user/reset-password',
      payload: { email: user.email },
    });
    expect(response.statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Восстановление пароля — Pledgewatch');
    expect(mail.text).toContain('Мы получили запрос на восстановление пароля');
    expect(mail.text).toMatch(/http:\/\/pledgewatch\.test\/reset-password\?token=[A-Za-z0-9_-]{43}/);
    expect(mail.html).toContain('Задать новый пароль');
    await expect
      .poll(
        async () =>
          (await app.db.query('SELECT status FROM mail_outbox WHERE to_address = $1', [user.email])).rows[0]
            ?.status,
      )
      .toBe('sent');
  });

  it('keeps a mail queued with the error while SMTP is down, sends it once it is back, and never twice', async () => {
    const id = await insertOutboxMail(app.db, {
      organisationId: null,
      to: 'later@test.ru',
      subject: 'Тема',
      text: 'Текст',
      html: '<p>Текст</p>',
    });
    const downMailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: config.mailFrom });
    const context = { db: app.db, config, mailer: downMailer, queue: app.queue, log: app.log };
    const run = { id: 'job', data: { mailId: id }, retryCount: 0, retryLimit: 6 };
    await expect(deliverMailJob.handler(run, context)).rejects.toThrow();
    const queued = await getOutboxMail(app.db, id);
    expect(queued).toMatchObject({ status: 'queued', attempts: 1 });
    expect(queued?.last_error).toBeTruthy();

    const upMailer = createMailer({ smtpUrl: smtp.url, from: config.mailFrom });
    await deliverMailJob.handler({ ...run, retryCount: 1 }, { ...context, mailer: upMailer });
    await deliverMailJob.handler({ ...run, retryCount: 2 }, { ...context, mailer: upMailer });
    expect((await getOutboxMail(app.db, id))?.status).toBe('sent');
    expect(smtp.mails.filter((mail) => mail.to.includes('later@test.ru'))).toHaveLength(1);
  });

  it('marks a mail failed after the last retry', async () => {
    const id = await insertOutboxMail(app.db, {
      organisationId: null,
      to: 'never@test.ru',
      subject: 'Тема',
      text: 'Текст',
      html: '<p>Текст</p>',
    });
    const downMailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: config.mailFrom });
    const context = { db: app.db, config, mailer: downMailer, queue: app.queue, log: app.log };
    await expect(
      deliverMailJob.handler({ id: 'job', data: { mailId: id }, retryCount: 6, retryLimit: 6 }, context),
    ).rejects.toThrow();
    expect((await getOutboxMail(app.db, id))?.status).toBe('failed');
  });

  it('without SMTP the mail is kept in the outbox as stored', async () => {
    const id = await insertOutboxMail(app.db, {
      organisationId: null,
      to: 'outbox@test.ru',
      subject: 'Тема',
      text: 'Текст',
      html: '<p>Текст</p>',
    });
    const noSmtp = createMailer({ from: config.mailFrom });
    await deliverMailJob.handler(
      { id: 'job', data: { mailId: id }, retryCount: 0, retryLimit: 6 },
      { db: app.db, config, mailer: noSmtp, queue: app.queue, log: app.log },
    );
    expect((await getOutboxMail(app.db, id))?.status).toBe('stored');
  });
});
