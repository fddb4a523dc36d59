import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort, runningEmbeddedServer, startEmbeddedPostgres } from '../db/embedded.ts';
import { DEMO_ACCOUNTS } from '../demo/demo-seed.ts';
import {
  ApiClient,
  type NodeProcess,
  report,
  sleep,
  spawnNode,
  startApp,
  tempDir,
} from '../testing/fault-harness.ts';
import { tableFingerprints } from '../testing/table-fingerprints.ts';

/**
 * The embedded database backed up through the CLI while the app runs, then a restore into a fresh
 * DATA_DIR killed with SIGKILL while it unpacks: the second restore must succeed, the data equal what
 * was backed up, and the app start on it.
 */

const fingerprint = (connectionString: string) => tableFingerprints(connectionString);

async function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const cli = spawnNode('cli', env, args);
  const code = await cli.exited;
  return { code, output: cli.output() };
}

let app: (NodeProcess & { url: string }) | undefined;
afterAll(async () => {
  await app?.kill('SIGTERM');
});

describe('restore killed midway', () => {
  it('a second restore succeeds, with the data backed up, and the app starts on it', {
    timeout: 600_000,
  }, async () => {
    const source = await tempDir('backup-source');
    const file = path.join(await tempDir('backup-file'), 'pledgewatch.backup');
    app = await startApp({ DATA_DIR: source, DEMO_DATA: 'true', PORT: String(await findFreePort()) });
    const running = runningEmbeddedServer(source);
    expect(running?.appPid).toBe(app.child.pid);
    // The app's own jobs may write while a backup runs (its first minutes stretch on a busy machine):
    // the backup that counts is one the data held still through. A backup that writes itself never
    // gets one.
    let before: Awaited<ReturnType<typeof fingerprint>> = {};
    for (let attempt = 1; ; attempt++) {
      before = await fingerprint(running!.connectionString);
      const backup = await runCli({ DATA_DIR: source }, ['backup', '--to', file]);
      expect(backup.code, backup.output).toBe(0);
      const after = await fingerprint(running!.connectionString);
      if (isDeepStrictEqual(after, before)) {
        break;
      }
      expect(attempt, 'the data held still through one of five backups').toBeLessThan(5);
      await sleep(5_000);
    }
    await app.kill('SIGTERM');
    app = undefined;

    const target = await tempDir('backup-target');
    const restoring = path.join(target, 'postgres.restoring');
    const killed = spawnNode('cli', { DATA_DIR: target }, ['restore', '--from', file]);
    // Killed as soon as it has unpacked part of the folder.
    for (let waited = 0; ; waited += 5) {
      const unpacked = await readdir(path.join(restoring, 'base')).catch(() => []);
      if (unpacked.length > 0 || killed.child.exitCode !== null) {
        break;
      }
      expect(waited, 'the restore unpacks within 60 s').toBeLessThan(60_000);
      await sleep(5);
    }
    await killed.kill('SIGKILL');
    expect(existsSync(restoring), 'killed while unpacking').toBe(true);
    expect(existsSync(path.join(target, 'postgres'))).toBe(false);

    const second = await runCli({ DATA_DIR: target }, ['restore', '--from', file]);
    expect(second.code, second.output).toBe(0);
    expect(existsSync(restoring)).toBe(false);
    const database = await startEmbeddedPostgres({ dataDir: target });
    try {
      expect(await fingerprint(database.connectionString)).toEqual(before);
    } finally {
      await database.stop();
    }

    app = await startApp({ DATA_DIR: target, PORT: String(await findFreePort()) });
    const api = new ApiClient(app.url);
    await api.signIn(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
    report(
      `backup of the running embedded database, restore killed while unpacking (${Object.keys(before).length} tables): the second restore matches every table's rows and the app signs in on it`,
    );
  });
});
