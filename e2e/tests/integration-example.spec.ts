import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

/** A package's own file, resolved the way Node resolves it from `from` (npm may place it anywhere). */
function packageFile(from: string, name: string, file: string): string {
  return path.join(path.dirname(createRequire(from).resolve(`${name}/package.json`)), file);
}

/**
 * Generated now, not trusted from the commit: any change to the API lands in the types this run
 * checks the script against, so a script that no longer fits the served API fails here. The copy in
 * the repository (read by `npm run typecheck`) is refreshed in place when it was behind.
 */
test('the example typechecks against the types openapi-typescript makes of the served document now', async () => {
  test.setTimeout(120_000);
  const committed = await readFile(typesFile, 'utf8');
  await run(process.execPath, [
    packageFile(path.join(exampleDir, 'package.json'), 'openapi-typescript', 'bin/cli.js'),
    `${E2E_APP_URL}/api/docs/json`,
    '-o',
    typesFile,
  ]);
  const generated = await readFile(typesFile, 'utf8');
  expect(generated).toContain('"/api/v1/pledges/events": {');
  if (generated !== committed) {
    test.info().annotations.push({
      type: 'warning',
      description:
        'examples/integration/src/pledgewatch-api.d.ts was behind the API and is regenerated: commit it',
    });
  }
  const tsc = packageFile(import.meta.filename, 'typescript', 'bin/tsc');
  const checked = await run(process.execPath, [tsc, '-p', exampleDir]).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
  );
  expect(checked.stdout).toBe('');
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
