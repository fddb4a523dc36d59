import { describe, expect, it } from 'vitest';
import { bearer } from '../../../testing/test-app.ts';
import { abandonSourceImport, runSourceImport } from '../passport-list/passport-list.service.ts';
import { importSourceFile, randomVin } from '../testing/checks-test-helpers.ts';
import { sourceImportTestSetup } from '../testing/source-import-test-setup.ts';
import { createSourceAdapter } from './source-registry.ts';

const {
  app,
  config,
  staff,
  postImport,
  importFiles: files,
  importStatus: status,
  killImport,
} = await sourceImportTestSetup('dataset-import');

/** The same, under a cap of 1 MiB on a source's file. */
const small = await sourceImportTestSetup('dataset-import-cap', { sourceImportMaxBytes: 1024 * 1024 });

const wantedCsv = (rows: [vin: string, recordId: string, since: string][]) =>
  `vin,record_id,since\n${rows.map((row) => row.join(',')).join('\n')}\n`;

const post = async (fileName: string, content: string) => {
  const response = await postImport('wanted', fileName, content);
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ id: string; status: string; progress: { phase: string } | null }>();
};

/** What a check of the VIN finds in the `wanted` source now: the records' keys. */
const found = async (vin: string) =>
  (
    await createSourceAdapter('wanted', { db: app.db, config }).check({
      kind: 'vin',
      documentType: null,
      identifier: vin,
    })
  ).findings
    .map((finding) => finding.key)
    .sort();

const records = async (importId: string) =>
  (
    await app.db.query<{ identifier: string; finding_key: string; since: string }>(
      `SELECT identifier, finding_key, payload->>'since' AS since FROM source_records
        WHERE import_id = $1 ORDER BY identifier, finding_key`,
      [importId],
    )
  ).rows;

describe('a dataset import is a job', () => {
  it('answers 202 with the version queued, then loads it in the background: the last of repeated rows wins across chunks', async () => {
    const vin = randomVin();
    // More rows than one chunk (5,000): the repeat of the first row's key comes in a later chunk.
    const rows: [string, string, string][] = [[vin, 'R-1', '2025-01-01']];
    for (let i = 0; i < 6000; i++) {
      rows.push([randomVin(), `F-${i}`, '2025-01-02']);
    }
    rows.push([vin, 'R-1', '2025-03-03']);
    const queued = await post('wanted.csv', wantedCsv(rows));
    expect(queued).toMatchObject({ status: 'importing', progress: { phase: 'queued' } });
    expect(await found(vin)).toEqual([]);

    await runSourceImport({ db: app.db, config, importId: queued.id, lastAttempt: true });
    expect(await status(queued.id)).toMatchObject({ status: 'active' });
    const history = (
      await app.inject({ url: '/api/v1/monitoring/sources/wanted/imports', headers: bearer(staff.token) })
    ).json().items[0];
    expect(history).toMatchObject({ id: queued.id, recordsTotal: 6001, rowsRejected: 0, progress: null });
    expect((await records(queued.id)).filter((r) => r.identifier === vin)).toEqual([
      { identifier: vin, finding_key: 'R-1', since: '2025-03-03' },
    ]);
    expect(await found(vin)).toEqual(['R-1']);
    expect(await files()).toEqual([]);
  });

  it('checks read the old version until the switch; an interrupted import runs again from its file, clean', async () => {
    const [kept, added] = [randomVin(), randomVin()];
    await importSourceFile(app, staff.token, 'wanted', 'v1.csv', wantedCsv([[kept, 'K-1', '2025-01-01']]));
    const queued = await post('v2.csv', wantedCsv([[added, 'A-1', '2025-02-01']]));

    // Killed after its records were written, before the switch: the old version answers meanwhile.
    await killImport(queued.id, async (phase) => {
      expect(phase).toBe('loaded');
      expect(await records(queued.id)).toHaveLength(1);
      expect(await found(kept)).toEqual(['K-1']);
      expect(await found(added)).toEqual([]);
      return true;
    });
    expect(await status(queued.id)).toMatchObject({ status: 'importing' });
    expect(await found(kept)).toEqual(['K-1']);
    expect(await files()).toEqual([queued.id]);

    // The queue's retry: the same version from its file, not a second copy of its records.
    await runSourceImport({ db: app.db, config, importId: queued.id, lastAttempt: true });
    expect(await status(queued.id)).toMatchObject({ status: 'active' });
    expect(await records(queued.id)).toEqual([
      { identifier: added, finding_key: 'A-1', since: '2025-02-01' },
    ]);
    expect(await found(added)).toEqual(['A-1']);
    expect(await found(kept)).toEqual([]);
    expect(await files()).toEqual([]);
  });

  it('an import given up by the queue fails in Russian: its records and file gone, the active version kept', async () => {
    const kept = randomVin();
    await importSourceFile(app, staff.token, 'wanted', 'v1.csv', wantedCsv([[kept, 'K-2', '2025-01-01']]));
    const queued = await post('v2.csv', wantedCsv([[randomVin(), 'Q-1', '2025-02-01']]));
    await killImport(queued.id);
    await abandonSourceImport({ db: app.db, importId: queued.id });
    expect(await status(queued.id)).toMatchObject({
      status: 'failed',
      failure: expect.stringContaining('Импорт дважды прерван'),
    });
    expect(await records(queued.id)).toEqual([]);
    expect(await files()).toEqual([]);
    expect(await found(kept)).toEqual(['K-2']);
  });

  it('shows its progress on the sources screen while it loads', async () => {
    const queued = await post('wanted.csv', wantedCsv([[randomVin(), 'P-1', '2025-01-01']]));
    const progress = async () =>
      (await app.inject({ url: '/api/v1/monitoring/sources', headers: bearer(staff.token) }))
        .json()
        .items.find((source: { type: string }) => source.type === 'wanted').importing;
    expect(await progress()).toMatchObject({ phase: 'queued', bytesRead: 0, rowsRead: 0 });
    let during: unknown;
    await runSourceImport({
      db: app.db,
      config,
      importId: queued.id,
      lastAttempt: true,
      async onPhase() {
        during = await progress();
      },
    });
    expect(during).toMatchObject({ phase: 'loading', rowsRead: 1 });
    expect((during as { bytesRead: number }).bytesRead).toBeGreaterThan(0);
    expect(await progress()).toBeNull();
  });

  it('refuses a file over SOURCE_IMPORT_MAX_BYTES with 413 in Russian, for a dataset and the passport list alike: nothing kept', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `${String(1_000_000_000 + i)}`);
    const big = `PASSP_SERIES,PASSP_NUMBER\n${rows.map((k) => `${k.slice(0, 4)},${k.slice(4)}`).join('\n')}\n`;
    expect(big.length).toBeGreaterThan(1024 * 1024);
    for (const [type, fileName] of [
      ['passport', 'list.csv'],
      ['wanted', 'wanted.csv'],
    ] as const) {
      const response = await small.postImport(type, fileName, big);
      expect(response.statusCode, `${type}: ${response.body}`).toBe(413);
      expect(response.json().message).toBe('Файл больше 1 МБ (SOURCE_IMPORT_MAX_BYTES)');
    }
    expect(await small.importFiles()).toEqual([]);
    const { rows: imports } = await small.app.db.query(
      `SELECT id FROM source_imports WHERE status = 'importing'`,
    );
    expect(imports).toEqual([]);
  });
});
