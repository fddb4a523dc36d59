import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_APP_URL } from './support/stack.ts';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  // Playwright's own browser download is not available on these machines: name the one command.
  throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
}

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: path.join(import.meta.dirname, '../test-results'),
  use: {
    baseURL: E2E_APP_URL,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright's own browser download is not available on these machines.
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node e2e/support/start-stack.ts',
    cwd: path.join(import.meta.dirname, '..'),
    url: `${E2E_APP_URL}/api/v1/build/info`,
    reuseExistingServer: false,
    // A first start: migrations, the demo organisation and its month of history (demo-history.ts:
    // two regular runs over 3,200 items), minutes on a machine shared by several test runs.
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM, not the default SIGKILL: the app then stops its embedded PostgreSQL (which runs in its
    // own process group and would otherwise outlive the run).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
  },
});
