import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where the test files (forks of the vitest process) leave their summary lines. */
export const faultsSummaryFile = (vitestPid: number) =>
  path.join(os.tmpdir(), `pledgewatch-faults-summary-${vitestPid}.txt`);

/** Global setup of `npm run test:faults`: prints what the suite exercised, once, at the end. */
export default async function setup() {
  const file = faultsSummaryFile(process.pid);
  await rm(file, { force: true });
  const started = Date.now();
  return async () => {
    const lines = (await readFile(file, 'utf8').catch(() => '')).trim();
    await rm(file, { force: true });
    console.log(
      `\nFault suite summary (${Math.round((Date.now() - started) / 1000)} s):\n${
        lines ? lines.replace(/^/gm, '  • ') : '  (no scenario finished)'
      }\n`,
    );
  };
}
