import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../../db/pool.ts';
import type { JobContext } from '../../../jobs/job-definition.ts';
import { bearer, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import { dropSupersededListJob } from '../jobs/drop-superseded-list.job.ts';
import { sourceImportJob } from '../jobs/source-import.job.ts';
import { createSourceAdapter } from '../sources/source-registry.ts';
import {
  addItems,
  importPassportList,
  passportListCsv,
  runChecksNow,
} from '../testing/checks-test-helpers.ts';
import { sourceImportTestSetup } from '../testing/source-import-test-setup.ts';
import { systemBzip2Decoders } from './decompress.ts';
import { listedAmong, passportListTable } from './passport-list.queries.ts';
import {
  importPassportListIn,
  queueListImport,
  runSourceImport,
  SUPERSEDED_LIST_GRACE_S,
  sourceImportFilePath,
} from './passport-list.service.ts';
import { PASSPORT_LIST_NOTE } from './passport-source.ts';

const {
  app,
  config,
  staff,
  postImport,
  importFiles: filesOnDisk,
  importStatus,
  killImport,
} = await sourceImportTestSetup('passport-list');

let analyst: TestUser;

beforeAll(async () => {
  analyst = await createSignedInUser(app, { role: 'analyst' });
});

/** bzip2 of the text, by Debian's `bzip2` (package bzip2, in every base system). */
const bzip2 = (text: string) => execFileSync('bzip2', ['-c'], { input: text, maxBuffer: 64 * 1024 * 1024 });

const post = (fileName: string, content: string | Uint8Array) => postImport('passport', fileName, content);

/** The passport source as a check or a run uses it, answering for one passport. */
async function listed(passport: string): Promise<boolean> {
  const adapter = createSourceAdapter('passport', { db: app.db, config });
  const answer = await adapter.check({ kind: 'document', documentType: 'passport_rf', identifier: passport });
  if (answer.status !== 'ok') {
    throw new Error(answer.error);
  }
  return answer.findings.length > 0;
}

const activeImport = async () =>
  (
    await app.db.query<{ id: string; version: number }>(
      `SELECT id, version FROM source_imports WHERE source_type = 'passport' AND status = 'active'`,
    )
  ).rows[0];

const listTables = async () =>
  (
    await app.db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'passport_list_%' ORDER BY 1`,
    )
  ).rows.map((row) => row.relname);

/** Runs the queued import to its end, `onPhase` called after its load and after its index. */
const runImportWatched = (importId: string, onPhase: (phase: string) => Promise<void>) =>
  runSourceImport({ db: app.db, config, importId, lastAttempt: true, onPhase });

describe('the MVD passport list', () => {
  it('imports the list as published (.csv.bz2) in the background: 202, then active, leading zeros kept, bad rows counted', async () => {
    const text = [
      'PASSP_SERIES,PASSP_NUMBER',
      '0304,012345',
      '0304,012345', // a repeat: one passport
      '4501,000001',
      '45AB,123456',
      '',
      '4501;000002',
    ].join('\n');
    const response = await post('list_of_expired_passports.csv.bz2', bzip2(text));
    expect(response.statusCode, response.body).toBe(202);
    const queued = response.json();
    expect(queued).toMatchObject({
      sourceType: 'passport',
      status: 'importing',
      progress: { phase: 'queued' },
    });
    // Until the job runs, the sources screen shows the import's progress.
    const sources = await app.inject({ url: '/api/v1/monitoring/sources', headers: bearer(analyst.token) });
    expect(sources.json().items.find((s: { type: string }) => s.type === 'passport').importing).toMatchObject(
      {
        version: queued.version,
        phase: 'queued',
      },
    );

    // The pure-JavaScript decoder here; the other tests take the system's fastest where one is installed.
    await runSourceImport({
      db: app.db,
      config,
      importId: queued.id,
      lastAttempt: true,
      decoder: 'javascript',
    });
    const history = await app.inject({
      url: '/api/v1/monitoring/sources/passport/imports',
      headers: bearer(staff.token),
    });
    expect(history.json().items[0]).toMatchObject({
      id: queued.id,
      status: 'active',
      recordsTotal: 2,
      rowsRejected: 3,
      progress: null,
      errors: [
        { row: 5, message: 'ожидаются серия (4 цифры), запятая и номер (6 цифр), в строке — «45AB,123456»' },
        { row: 6, message: 'пустая строка' },
        { row: 7, message: 'ожидаются серия (4 цифры), запятая и номер (6 цифр), в строке — «4501;000002»' },
      ],
    });
    expect(await listed('0304012345')).toBe(true);
    expect(await listed('3040123450')).toBe(false);
    expect(await listed('0030401234')).toBe(false);
    expect(await listed('4501000001')).toBe(true);
    expect(await listed('4501000002')).toBe(false);
    expect(await filesOnDisk()).toEqual([]);
    expect(await listTables()).toEqual([`passport_list_${queued.id.replaceAll('-', '')}`]);
  });

  it('switches versions atomically: checks during an import read the old one, the old storage goes after', async () => {
    await importPassportList(app, staff.token, passportListCsv(['1111000001']));
    const before = await activeImport();
    const queued = (await post('list.csv', passportListCsv(['2222000002', '1111000009']))).json();
    const seen: string[] = [];
    await runImportWatched(queued.id, async (phase) => {
      if (phase === 'switched') {
        // One step: the new version answers, before the old one's storage goes.
        seen.push(`switched:${await listed('2222000002')}`);
        expect((await activeImport())!.id).toBe(queued.id);
        return;
      }
      // Loaded and indexed, not yet switched: every check still reads the old version.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => listed(i % 2 ? '1111000001' : '2222000002')),
      );
      seen.push(`${phase}:${answers.every((hit, i) => hit === (i % 2 === 1))}`);
      expect((await activeImport())!.id).toBe(before!.id);
    });
    expect(seen).toEqual(['loaded:true', 'indexed:true', 'switched:true']);
    expect((await activeImport())!.id).toBe(queued.id);
    expect(await listed('2222000002')).toBe(true);
    expect(await listed('1111000001')).toBe(false);
    // The old version's table is dropped; only the active one's stays.
    expect(await listTables()).toEqual([`passport_list_${queued.id.replaceAll('-', '')}`]);
  });

  it('shows the import on the sources screen while it runs: phase, compressed bytes read, rows read', async () => {
    const content = bzip2(passportListCsv(['8800000001', '8800000002', '8800000003']));
    const queued = (await post('list.csv.bz2', content)).json();
    const seen: unknown[] = [];
    await runImportWatched(queued.id, async (phase) => {
      if (phase === 'indexed') {
        const sources = await app.inject({
          url: '/api/v1/monitoring/sources',
          headers: bearer(analyst.token),
        });
        seen.push(sources.json().items.find((s: { type: string }) => s.type === 'passport').importing);
      }
    });
    expect(seen).toEqual([
      expect.objectContaining({
        version: queued.version,
        phase: 'indexing',
        bytesRead: content.length,
        bytesTotal: content.length,
        rowsRead: 3,
      }),
    ]);
    expect(await listed('8800000002')).toBe(true);
  });

  it('an interrupted import leaves the active version answering and runs again from its file', async () => {
    await importPassportList(app, staff.token, passportListCsv(['3333000003']));
    const before = await activeImport();
    const queued = (await post('list.csv.bz2', bzip2(passportListCsv(['4444000004'])))).json();
    await killImport(queued.id, (phase) => phase === 'indexed');
    expect((await activeImport())!.id).toBe(before!.id);
    expect(await listed('3333000003')).toBe(true);
    expect(await listed('4444000004')).toBe(false);
    expect(await filesOnDisk()).toEqual([queued.id]);

    // The queue's retry: the same import, from the start, over what the killed one left.
    await runSourceImport({ db: app.db, config, importId: queued.id, lastAttempt: true });
    expect((await activeImport())!.id).toBe(queued.id);
    expect(await listed('4444000004')).toBe(true);
    expect(await listTables()).toEqual([`passport_list_${queued.id.replaceAll('-', '')}`]);
    expect(await filesOnDisk()).toEqual([]);
  });

  it("the import's job ends at the switch; the old version's table goes by a job queued with the switch for 30 s later", async () => {
    await importPassportList(app, staff.token, passportListCsv(['7777000007']));
    const oldTable = passportListTable((await activeImport())!.id);
    const queued = (await post('list.csv', passportListCsv(['7777000008']))).json();
    const newTable = passportListTable(queued.id);
    const context = { db: app.db, config, queue: app.queue, log: app.log } as JobContext;
    await sourceImportJob.handler(
      { id: 'job', data: { importId: queued.id }, retryCount: 0, retryLimit: 2 },
      context,
    );
    // Switched, and the job is over: the old table waits for its own job (a stop now does not lose it).
    expect((await activeImport())!.id).toBe(queued.id);
    expect(await listTables()).toEqual([newTable, oldTable].sort());
    const drops = await app.db.query<{ table: string; delay_s: number }>(
      `SELECT data->>'table' AS table, extract(epoch FROM start_after - created_on)::int AS delay_s
         FROM pgboss.job WHERE name = $1 AND data->>'table' = $2`,
      [dropSupersededListJob.name, oldTable],
    );
    expect(drops.rows).toEqual([{ table: oldTable, delay_s: SUPERSEDED_LIST_GRACE_S }]);

    const drop = (table: string) =>
      dropSupersededListJob.handler({ id: 'drop', data: { table }, retryCount: 0, retryLimit: 5 }, context);
    // The active version's table is never dropped, whatever a job names.
    await drop(newTable);
    await drop(oldTable);
    expect(await listTables()).toEqual([newTable]);
    await drop(oldTable); // a retry after the drop: nothing left to do
    expect(await listed('7777000008')).toBe(true);
  });

  it('an import given up by the queue (quarantined) fails in Russian, its file and tables gone', async () => {
    await importPassportList(app, staff.token, passportListCsv(['6666000006']));
    const before = await activeImport();
    const tables = await listTables();
    const queued = (await post('list.csv', passportListCsv(['6666000007']))).json();
    await killImport(queued.id);
    await sourceImportJob.quarantine!(
      { id: 'job', data: { importId: queued.id }, retryCount: 1, retryLimit: 2 },
      { db: app.db } as JobContext,
    );
    expect(await importStatus(queued.id)).toEqual({
      status: 'failed',
      failure: 'Импорт дважды прерван остановкой процесса и больше не запускается: загрузите файл заново',
    });
    expect(await activeImport()).toEqual(before);
    expect(await listTables()).toEqual(tables);
    expect(await filesOnDisk()).toEqual([]);
  });

  it('refuses bad files with a Russian reason, the active version unchanged, nothing left on disk', async () => {
    await importPassportList(app, staff.token, passportListCsv(['5555000005']));
    const before = await activeImport();
    const tables = await listTables();

    const refusals = [
      [
        'list.csv.bz2',
        Buffer.from('PASSP_SERIES,PASSP_NUMBER\n1234,567890\n'),
        'Файл назван .bz2, но это не архив bzip2',
      ],
      [
        'list.csv',
        'vin;record_id\nXTA,1\n',
        'первая строка должна быть «PASSP_SERIES,PASSP_NUMBER», в файле — «vin;record_id»',
      ],
      ['list.csv', '', 'Файл пуст'],
      // Cut inside its only block: refused at once, when the head is read.
      [
        'cut.csv.bz2',
        bzip2(passportListCsv(['5555000006', '5555000007'])).subarray(0, 30),
        'Архив bzip2 повреждён или обрезан',
      ],
      ['list.csv.bz2', bzip2(''), 'Файл пуст'],
    ] as const;
    for (const [name, content, reason] of refusals) {
      const response = await post(name, content);
      expect(response.statusCode, name).toBe(422);
      expect(response.json().message).toContain(reason);
    }

    // Refused by the job, after the head was read: a truncated archive, a bomb, only a header.
    // Random passports compress poorly: the archive spans several blocks, so its head reads well.
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed;
    };
    const big = passportListCsv(
      Array.from(
        { length: 300_000 },
        () => String(random() % 10_000).padStart(4, '0') + String(random() % 1_000_000).padStart(6, '0'),
      ),
    );
    const whole = bzip2(big);
    const cases = [
      [
        'truncated.csv.bz2',
        whole.subarray(0, Math.floor(whole.length * 0.8)),
        2 ** 31,
        'Архив bzip2 повреждён или обрезан',
      ],
      ['bomb.csv.bz2', whole, 100_000, 'Распакованный файл больше'],
      ['header.csv', 'PASSP_SERIES,PASSP_NUMBER\n', 2 ** 31, 'В файле только заголовок'],
    ] as const;
    // Through each system decoder installed (lbzip2, bunzip2) and the pure-JavaScript one alike.
    for (const decoder of [...systemBzip2Decoders(), 'javascript'] as const) {
      for (const [name, content, maxBytes, reason] of cases) {
        const response = await post(name, content);
        let id: string;
        if (response.statusCode === 422) {
          // lbzip2 reads the archive ahead of its first output, so the head's read may find a broken
          // one at once (refused in Russian, as the docs allow); the job's own refusal is then tested
          // on the same file, queued as the upload would have queued it.
          expect(name).toBe('truncated.csv.bz2');
          expect(response.json().message).toContain(reason);
          id = randomUUID();
          const filePath = sourceImportFilePath(config, id);
          await writeFile(filePath, content);
          await queueListImport(app.db, { send: async () => null } as never, {
            importId: id,
            filePath,
            fileName: name,
            bytes: content.length,
            createdBy: null,
          });
        } else {
          expect(response.statusCode, `${name}: ${response.body}`).toBe(202);
          id = response.json().id;
        }
        await runSourceImport({
          db: app.db,
          config: { uploadMaxUnzippedBytes: maxBytes },
          importId: id,
          lastAttempt: true,
          decoder,
        });
        const row = (
          await app.db.query(`SELECT status, failure, file_path FROM source_imports WHERE id = $1`, [id])
        ).rows[0];
        expect(row, `${name} ${decoder}`).toMatchObject({ status: 'failed', file_path: null });
        expect(row.failure, `${name} ${decoder}`).toContain(reason);
      }
    }
    expect(await activeImport()).toEqual(before);
    expect(await listed('5555000005')).toBe(true);
    expect(await listTables()).toEqual(tables);
    expect(await filesOnDisk()).toEqual([]);
  });

  it('raises «Паспорт в списке недействительных» and «…исключён…» from the difference, with the advice to verify', async () => {
    const organisation = await createSignedInUser(app, { role: 'admin' });
    const [stays, leaves, arrives, clean] = ['7700000001', '0700000002', '7700000003', '7700000004'];
    await addItems(
      app,
      organisation.organisationId,
      [stays, leaves, arrives, clean].map((identifier) => ({
        kind: 'document',
        documentType: 'passport_rf',
        identifier,
      })),
    );
    await importPassportList(app, staff.token, passportListCsv([stays, leaves]));
    await runChecksNow(app, config, organisation.token);
    await importPassportList(app, staff.token, bzip2(passportListCsv([stays, arrives])), 'list.csv.bz2');
    await runChecksNow(app, config, organisation.token);

    const events = (
      await app.inject({
        url: '/api/v1/monitoring/events/items?pageSize=50',
        headers: bearer(organisation.token),
      })
    ).json().items as {
      type: string;
      typeLabel: string;
      item: { identifier: string };
      before: { note: string } | null;
      after: { note: string; passport: string } | null;
    }[];
    const lines = events.map((e) => `${e.item.identifier} ${e.type} ${e.typeLabel}`).sort();
    expect(lines).toEqual(
      [
        `${stays} passport_invalid Паспорт в списке недействительных`,
        `${leaves} passport_invalid Паспорт в списке недействительных`,
        `${arrives} passport_invalid Паспорт в списке недействительных`,
        `${leaves} passport_invalid_removed Паспорт исключён из списка недействительных`,
      ].sort(),
    );
    const arrived = events.find((e) => e.item.identifier === arrives)!;
    expect(arrived.after).toMatchObject({ passport: '7700 000003', note: PASSPORT_LIST_NOTE });
    expect(PASSPORT_LIST_NOTE).toContain('Проверьте паспорт');
    expect(PASSPORT_LIST_NOTE).toContain('повод для проверки, а не решение');
    expect(events.find((e) => e.type === 'passport_invalid_removed')!.before!.note).toBe(PASSPORT_LIST_NOTE);
  });

  // A key is found in its block by a binary search over the block's sorted numbers (numberListed):
  // its ends, a single number, a key below the first or above the last, a block of thousands.
  it('finds a key at any place of its block, by a check and by a run, from an import and from demo data', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `777777${String(i * 5).padStart(4, '0')}`);
    const listedKeys = ['1234560000', '1234560005', '1234569999', '1234574242', ...many];
    const absent = [
      '1234560001',
      '1234560004',
      '1234569998',
      '1234574241',
      '1234574243',
      '7777770001',
      '7777779999',
    ];
    const batch = async () => {
      const findings = (await createSourceAdapter('passport', { db: app.db, config }).batchFindings!())!;
      const items = [...listedKeys, ...absent].sort();
      const { rows } = await app.db.query<{ key: string }>(
        `WITH batch_items AS MATERIALIZED (
           SELECT gen_random_uuid() AS id, k AS identifier, 'passport_rf'::text AS document_type
             FROM unnest($1::text[]) AS k WHERE $2::text IS NOT NULL ORDER BY k)
         ${findings.sql(5)}`,
        [items, 'document', items[0], items.at(-1), ...findings.params],
      );
      return rows.map((row) => row.key).sort();
    };
    const expectAnswers = async () => {
      for (const key of [...listedKeys.slice(0, 6), ...many.slice(-3)]) {
        expect(await listed(key), key).toBe(true);
      }
      for (const key of absent) {
        expect(await listed(key), key).toBe(false);
      }
      expect(await batch()).toEqual([...listedKeys].sort());
    };
    // Through the import (ListKeyStore sorts), the file's rows in reverse order.
    await importPassportList(app, staff.token, passportListCsv([...listedKeys].reverse()));
    await expectAnswers();
    // Made from a list in one statement (demo data), given in reverse order too.
    await withTransaction(app.db, (tx) =>
      importPassportListIn(tx, { fileName: 'demo.csv', passports: [...listedKeys].reverse() }),
    );
    await expectAnswers();
  });

  it('looks a passport up by one primary-key probe, and a batch of a run reads the list only within its range', async () => {
    // 60,000 blocks: enough that a hash of the whole list would look cheap to a planner without statistics.
    const passports = Array.from({ length: 60_000 }, (_, j) => String(1_000_000_000 + j * 10_000 + (j % 97)));
    const id = await withTransaction(app.db, (tx) =>
      importPassportListIn(tx, { fileName: 'plan.csv', passports }),
    );
    const table = passportListTable(id);
    const explain = async (sql: string, params: unknown[]) =>
      (await app.db.query(`EXPLAIN (COSTS OFF) ${sql}`, params)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');

    // The one-time check's lookup, as the source sends it.
    let lookupPlan = '';
    const explaining = {
      query: async (sql: string, params: unknown[]) => {
        lookupPlan = await explain(sql, params);
        return { rows: [] };
      },
    };
    await listedAmong(explaining as never, table, ['1000100001']);
    expect(lookupPlan).toContain(`Index Scan using ${table}_pkey`);
    expect(lookupPlan).not.toContain('Seq Scan');

    // A run's batch: 3,000 passports in one range (a twentieth of the list), matched in one statement.
    // An item of another document type in the batch (a scope not narrowed to passports) has no key
    // and joins nothing, never fails the cast.
    const others = ['1200000005', '120000005А', '12000000051'];
    const passportItems = Array.from({ length: 3000 }, (_, i) => String(1_200_000_000 + i * 10_000 + 5));
    const items = [
      ...passportItems.map((identifier) => ({ identifier, type: 'passport_rf' })),
      ...others.map((identifier) => ({ identifier, type: 'driving_licence' })),
    ].sort((a, b) => (a.identifier < b.identifier ? -1 : 1));
    const batch = (await createSourceAdapter('passport', { db: app.db, config }).batchFindings!())!;
    const sql = `WITH batch_items AS MATERIALIZED (
                   SELECT gen_random_uuid() AS id, k AS identifier, t AS document_type
                     FROM unnest($1::text[], $2::text[]) AS x(k, t) ORDER BY k)
                 ${batch.sql(5)}`;
    const params = [
      items.map((item) => item.identifier),
      items.map((item) => item.type),
      passportItems[0],
      passportItems.at(-1),
      ...batch.params,
    ];
    const batchPlan = await explain(sql, params);
    expect(batchPlan).not.toContain(`Seq Scan on ${table}`);
    expect(batchPlan).toContain(`${table}_pkey`);
    const { rows } = await app.db.query<{ key: string }>(sql, params);
    // Listed: block 100,000 + j holds j % 97 (above), and every item's number is 5.
    const expected = passportItems.filter((key) => (Math.floor(Number(key) / 10_000) - 100_000) % 97 === 5);
    expect(rows.map((row) => row.key).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('holds a passport item to its 10 digits in the database too, so a batch casts it without a test', async () => {
    const staff = await createSignedInUser(app, { role: 'admin' });
    const insert = (identifier: string, documentType = 'passport_rf') =>
      app.db.query(
        `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, origin)
         VALUES ($1, 'document', $2, $3, 'form')`,
        [staff.organisationId, documentType, identifier],
      );
    // Too short, too long, a letter (Latin, Cyrillic), a space, a sign, full-width digits, blank.
    for (const odd of [
      '12345',
      '12000000051',
      '120000005a',
      '120000005А',
      '1200 00005',
      '+120000005',
      '１２０００００００５',
      '',
    ]) {
      await expect(insert(odd), odd).rejects.toMatchObject({
        code: '23514',
        constraint: 'monitoring_items_passport_digits',
      });
    }
    await insert('0012000005');
    // Other documents keep their own forms (a driving licence's series may hold letters).
    await insert('12АБ345678', 'driving_licence');
    const { rows } = await app.db.query<{ identifier: string }>(
      'SELECT identifier FROM monitoring_items WHERE organisation_id = $1 ORDER BY identifier',
      [staff.organisationId],
    );
    expect(rows.map((row) => row.identifier)).toEqual(['0012000005', '12АБ345678']);
  });
});
