import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { AppConfig } from '../../../config/env.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { runSourceImport } from '../passport-list/passport-list.service.ts';
import { multipartFile } from './checks-test-helpers.ts';

/**
 * What the source-import tests (datasets, the passport list) share: an app with a data directory
 * of its own, since they assert that no import file is left in it, a staff user who uploads, and an
 * import run that a worker kill stops part-way.
 */
export async function sourceImportTestSetup(name: string, overrides: Partial<AppConfig> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `pledgewatch-${name}-`));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const { app, config } = await buildTestApp({ config: { ...overrides, dataDir } });
  const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
  return {
    app,
    config,
    staff,
    /** The staff user's upload of a file to the source's imports (202 and the queued import when accepted). */
    postImport(sourceType: string, fileName: string, content: string | Uint8Array) {
      const file = multipartFile(fileName, content);
      return app.inject({
        method: 'POST',
        url: `/api/v1/monitoring/sources/${sourceType}/imports`,
        payload: file.payload,
        headers: { ...file.headers, ...bearer(staff.token) },
      });
    },
    /** The import files left in the data directory. */
    importFiles: () => readdir(path.join(dataDir, 'source-imports')).catch(() => [] as string[]),
    importStatus: async (importId: string) =>
      (await app.db.query('SELECT status, failure FROM source_imports WHERE id = $1', [importId])).rows[0],
    /** Runs the import as the queue's first attempt does, killed at the first phase `killAt` accepts. */
    async killImport(importId: string, killAt: (phase: string) => boolean | Promise<boolean> = () => true) {
      await expect(
        runSourceImport({
          db: app.db,
          config,
          importId,
          lastAttempt: false,
          async onPhase(phase) {
            if (await killAt(phase)) {
              throw new Error('worker killed');
            }
          },
        }),
      ).rejects.toThrow('worker killed');
    },
  };
}
