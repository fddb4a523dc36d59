import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startProviderSimulator } from '../../apps/server/src/testing/provider-simulator.ts';
import { startSmtpSink } from '../../apps/server/src/testing/smtp-sink.ts';
import {
  E2E_APP_PORT,
  E2E_APP_URL,
  E2E_MAIL_API_PORT,
  E2E_PROVIDERS_PORT,
  E2E_PROVIDERS_URL,
  E2E_SOURCE_PORT,
} from './stack.ts';

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

// The `passport` source as a remote service: it finds nothing until a test posts /status?code=503
// (a source that went down), and answers again after /status?code=200.
let sourceStatus = 200;
const remoteSource = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://x');
  if (url.pathname === '/status') {
    sourceStatus = Number(url.searchParams.get('code') ?? 200);
    response.end('{}');
    return;
  }
  response.writeHead(sourceStatus, { 'content-type': 'application/json' });
  response.end(sourceStatus === 200 ? '{"findings":[]}' : '{"error":"maintenance"}');
});
await new Promise<void>((resolve) => remoteSource.listen(E2E_SOURCE_PORT, '127.0.0.1', resolve));

// The `bankruptcy` source through the Fedresurs REST format, answered by the simulator: only its
// example debtor (INN 500100732259) is found, INN 7736207543 finds the provider unavailable. A VIN
// source stays a dataset here: each regular run of the demo's 3,000 VINs would ask a provider 3,000 times.
const providers = await startProviderSimulator({
  port: E2E_PROVIDERS_PORT,
  foundEvery: 0,
  failures: { '7736207543': 'unavailable' },
});

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
    SOURCE_PASSPORT_URL: `http://127.0.0.1:${E2E_SOURCE_PORT}/passport`,
    SOURCE_PASSPORT_RETRIES: '0',
    SOURCE_PASSPORT_TIMEOUT_MS: '2000',
    SOURCE_PASSPORT_CACHE_TTL: '0',
    SOURCE_BANKRUPTCY_PROVIDER: 'fedresurs',
    SOURCE_BANKRUPTCY_URL: `${E2E_PROVIDERS_URL}/fedresurs`,
    SOURCE_BANKRUPTCY_TOKEN: 'e2e:e2e',
    SOURCE_BANKRUPTCY_RATE_LIMIT: '2000',
    SOURCE_BANKRUPTCY_RETRIES: '0',
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
  remoteSource.close();
  await providers.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(code);
}
app.once('exit', (code) => void stop(code ?? 1));
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));
