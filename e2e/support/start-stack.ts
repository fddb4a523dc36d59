import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startSmtpSink } from '../../apps/server/src/testing/smtp-sink.ts';
import { E2E_APP_PORT, E2E_APP_URL, E2E_MAIL_API_PORT } from './stack.ts';

/**
 * The app exactly as `npm start` runs it (built web app, embedded PostgreSQL, demo data) on a
 * fresh data folder, wired to a real SMTP server on loopback whose mails the tests read over HTTP.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-e2e-'));
await chmod(dataDir, 0o755);
const smtp = await startSmtpSink();

const mailApi = http.createServer((request, response) => {
  const to = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
  const mails = smtp.mails.filter((mail) => !to || mail.to.includes(to));
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(mails));
});
await new Promise<void>((resolve) => mailApi.listen(E2E_MAIL_API_PORT, '127.0.0.1', resolve));

const app = spawn(process.execPath, ['apps/server/src/server.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E_APP_PORT),
    HOST: '127.0.0.1',
    APP_URL: E2E_APP_URL,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
  },
});

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) {
    return;
  }
  stopping = true;
  if (app.exitCode === null) {
    app.kill('SIGTERM');
    await new Promise((resolve) => app.once('exit', resolve));
  }
  mailApi.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(code);
}
app.once('exit', (code) => void stop(code ?? 1));
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));
