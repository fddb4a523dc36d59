import { defineConfig } from 'vitest/config';

/**
 * Projects: pure packages (and the repo scripts), the web app's pure modules, the server's unit + API
 * tests; two more run on their own: `inputs` (the hostile-input corpus, `npm run test:inputs`) and
 * `faults` (`npm run test:faults`).
 * The server project runs against the database chosen by TEST_DB (`embedded` or `server`).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          // `*.dom.test.tsx` files mount into happy-dom (`// @vitest-environment happy-dom`) and type and click.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: [
            '**/node_modules/**',
            'apps/server/src/**/*.inputs.test.ts',
            'apps/server/src/**/*.faults.test.ts',
          ],
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The hostile-input corpus (`npm run test:inputs`): big generated files, run on its own.
        test: {
          name: 'inputs',
          include: ['apps/server/src/**/*.inputs.test.ts'],
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // `npm run test:faults`: real processes killed and restarted against a PostgreSQL each file
        // starts itself, one file at a time (they load the machine).
        test: {
          name: 'faults',
          include: ['apps/server/src/**/*.faults.test.ts'],
          globalSetup: ['apps/server/src/testing/faults-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
