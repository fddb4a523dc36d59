import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from './testing/smtp-sink.ts';
import { buildTestApp, createSignedInUser } from './testing/test-app.ts';

const smtp = await startSmtpSink();
// The app itself consumes no jobs here: only the separate worker process can deliver.
const { app, connectionString } = await buildTestApp({ runWorkers: false });
let worker: ChildProcess | undefined;
afterAll(async () => {
  worker?.kill('SIGTERM');
  await smtp.close();
});

describe('npm run worker', () => {
  it('a separate worker process delivers the mail the app queued', async () => {
    const user = await createSignedInUser(app);
    await app.inject({ method: 'POST', url: '/api/v1/user/reset-password', payload: { email: user.email } });
    const status = async () =>
      (await app.db.query('SELECT status FROM mail_outbox WHERE to_address = $1', [user.email])).rows[0]
        ?.status;
    expect(await status()).toBe('queued');

    worker = spawn(process.execPath, [path.join(import.meta.dirname, 'worker.ts')], {
      env: { ...process.env, DATABASE_URL: connectionString, SMTP_URL: smtp.url, LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    });
    const mail = await smtp.waitFor((m) => m.to.includes(user.email), 30_000);
    expect(mail.subject).toBe('Восстановление пароля — Pledgewatch');
    await expect.poll(status, { timeout: 10_000 }).toBe('sent');
  });
});
