import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { newVin } from '../support/identifiers.ts';
import { apiCall, apiToken, DEMO_ADMIN } from '../support/session.ts';
import { E2E_APP_URL } from '../support/stack.ts';

/**
 * examples/integration: a bank's loan system, typed from the served OpenAPI document, run as its own
 * process against this stack with an API key.
 */
const run = promisify(execFile);
const exampleDir = path.resolve(import.meta.dirname, '../../examples/integration');
const typesFile = path.join(exampleDir, 'src/pledgewatch-api.d.ts');
/** See one-time-check.spec.ts: a computed specifier keeps the server graph out of the e2e typecheck. */
const DEMO_DATASETS_MODULE = '../../apps/server/src/demo/demo-datasets.ts';
const { DEMO_PLEDGED_VIN, DEMO_PLEDGE_NOTICE } = (await import(DEMO_DATASETS_MODULE)) as {
  DEMO_PLEDGED_VIN: string;
  DEMO_PLEDGE_NOTICE: string;
};

/** openapi-typescript's own CLI, wherever npm placed it for the example's workspace. */
function openapiTypescriptCli(): string {
  const manifest = createRequire(path.join(exampleDir, 'package.json')).resolve(
    'openapi-typescript/package.json',
  );
  return path.join(path.dirname(manifest), 'bin/cli.js');
}

test('the example’s types are what openapi-typescript makes of the served document today', async () => {
  test.setTimeout(120_000);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-types-'));
  try {
    const fresh = path.join(scratch, 'pledgewatch-api.d.ts');
    await run(process.execPath, [openapiTypescriptCli(), `${E2E_APP_URL}/api/docs/json`, '-o', fresh]);
    const generated = await readFile(fresh, 'utf8');
    if (process.env.UPDATE_API_TYPES === '1') {
      await writeFile(typesFile, generated);
    }
    expect(
      generated === (await readFile(typesFile, 'utf8')),
      'examples/integration/src/pledgewatch-api.d.ts is stale: rerun this test with UPDATE_API_TYPES=1 (docs/integration.md)',
    ).toBe(true);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});

test('a loan system with an API key: cars and pledgor on monitoring, one notification however often it retries, a check’s findings', async () => {
  const admin = await apiToken(DEMO_ADMIN);
  const keyName = `АБС: выдача кредитов ${Date.now()}`;
  const key = await apiCall<{ secret: string }>(admin, 'POST', '/api/v1/api-keys', {
    name: keyName,
    role: 'analyst',
  });
  const loan = `2026-${Date.now()}`;
  const vins = [DEMO_PLEDGED_VIN, newVin(), newVin()];
  const loanSystem = () =>
    run(
      process.execPath,
      [path.join(exampleDir, 'src/loan-system.ts'), '--loan', loan, ...vins.flatMap((vin) => ['--vin', vin])],
      {
        cwd: exampleDir,
        env: { ...process.env, PLEDGEWATCH_URL: E2E_APP_URL, PLEDGEWATCH_API_KEY: key.secret },
      },
    );

  const first = (await loanSystem()).stdout;
  expect(first).toMatch(/^VINs on monitoring: added \d, already there \d, rejected 0$/m);
  expect(first).toContain("Pledgor's passport on monitoring: added 1");
  const notificationId = /^Pledge notification: УЗ1 ([0-9a-f-]{36}),/m.exec(first)?.[1];
  expect(notificationId).toBeDefined();
  expect(first).toContain(
    `Retry with the same Idempotency-Key (replayed): the same notification ${notificationId}`,
  );
  expect(first).toMatch(new RegExp(`^One-time check ПР-\\d{4}-\\d+ of ${DEMO_PLEDGED_VIN}: completed`, 'm'));
  expect(first).toMatch(
    new RegExp(`^ {2}pledges: ${DEMO_PLEDGE_NOTICE} .*"pledgee":"ООО «Альфа-Лизинг»"`, 'm'),
  );

  // The whole job again for the same loan, as after a timeout: every answer is the first one.
  const second = (await loanSystem()).stdout;
  expect(second).toContain('VINs on monitoring (replayed)');
  expect(second).toContain(`Pledge notification (replayed): УЗ1 ${notificationId}`);
  expect(second).toMatch(new RegExp(`^One-time check .* of ${DEMO_PLEDGED_VIN} \\(replayed\\)`, 'm'));

  // What the organisation now holds, read as the admin.
  const contractNumber = `КД-${loan}`;
  const itemsOfLoan = async (entity: 'vin' | 'document') =>
    (
      await apiCall<{ items: { identifier: string }[] }>(
        admin,
        'GET',
        `/api/v1/monitoring/items?entity=${entity}&search=${encodeURIComponent(contractNumber)}&pageSize=50`,
      )
    ).items.map((item) => item.identifier);
  expect((await itemsOfLoan('vin')).sort()).toEqual([...vins].sort());
  expect(await itemsOfLoan('document')).toEqual(['4506123456']);
  const notifications = await apiCall<{
    items: { id: string; contract: { number: string } }[];
    total: number;
  }>(admin, 'GET', `/api/v1/pledges/events?vin=${vins[1]}`);
  expect(notifications.items.map((event) => [event.id, event.contract.number])).toEqual([
    [notificationId, contractNumber],
  ]);
  const checks = await apiCall<{ items: { identifier: string; createdBy: { fullName: string } }[] }>(
    admin,
    'GET',
    `/api/v1/monitoring/one-time-checks?search=${DEMO_PLEDGED_VIN}&pageSize=200`,
  );
  expect(checks.items.filter((check) => check.createdBy.fullName === `Ключ API «${keyName}»`)).toHaveLength(
    1,
  );
  const audit = await apiCall<{ items: { action: string; actor: { fullName: string } | null }[] }>(
    admin,
    'GET',
    '/api/v1/audit?pageSize=50',
  );
  const byKey = audit.items.filter((entry) => entry.actor?.fullName === `Ключ API «${keyName}»`);
  expect(byKey.map((entry) => entry.action)).toEqual(
    expect.arrayContaining(['monitoring.items_added', 'pledge.creation']),
  );
  expect(byKey.filter((entry) => entry.action === 'pledge.creation')).toHaveLength(1);
});
