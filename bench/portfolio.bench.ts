import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { from as copyFrom } from 'pg-copy-streams';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createPool } from '../apps/server/src/db/pool.ts';
import { demoVin } from '../apps/server/src/demo/demo-portfolio.ts';
import {
  createOrganisation,
  createUserAccount,
} from '../apps/server/src/modules/organisations/organisations.service.ts';
import type { BenchContext } from './harness.ts';

const ROWS = Number(process.env.BENCH_PORTFOLIO_ROWS ?? 1_000_000);
const MAKES = [
  { wmi: 'XTA', plant: '0', model: { name: 'LADA Vesta', vds: 'GFL11' } },
  { wmi: 'Z94', plant: 'U', model: { name: 'Hyundai Solaris', vds: 'CB41A' } },
  { wmi: 'XW8', plant: 'K', model: { name: 'Škoda Rapid', vds: 'AN5NH' } },
  { wmi: 'LGW', plant: 'N', model: { name: 'Haval Jolion', vds: 'EF5A3' } },
  { wmi: 'X7L', plant: 'R', model: { name: 'Renault Duster', vds: 'HSRD2' } },
];
const YEARS = 'JKLMNPR';
/**
 * The Node flags the processes that run upload jobs start with (package.json: start:server, worker):
 * the young generation capped at 16 MB semi-spaces, or V8 grows it to 64 MB ones during a long import.
 */
const IMPORTING_PROCESS_FLAGS = ['--max-semi-space-size=16'];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** `ROWS` unique valid VINs with labels, contracts and pledgors, as a `;` CSV in UTF-8. */
async function writeCsv(filePath: string): Promise<void> {
  async function* lines() {
    yield 'VIN;Метка;Номер договора;Залогодатель\n';
    let batch = '';
    for (let i = 0; i < ROWS; i++) {
      const make = MAKES[i % MAKES.length]!;
      const year = YEARS[Math.floor(i / 1_000_000) % YEARS.length]!;
      const vin = demoVin(
        { ...make, make: '', weight: 1, models: [make.model] },
        make.model,
        year,
        i % 1_000_000,
      );
      batch += `${vin};${make.model.name} №${i};КД-2025/${String(i).padStart(7, '0')};Залогодатель ${i % 9973}\n`;
      if (batch.length > 256 * 1024) {
        yield batch;
        batch = '';
      }
    }
    yield batch;
  }
  await pipeline(lines(), createWriteStream(filePath));
}

/**
 * A portfolio file of BENCH_PORTFOLIO_ROWS rows through the real upload pipeline (receive, validate
 * into staging with COPY, set-based import into the indexed items table, the list page) beside the
 * reference: COPY of the same file into a table with a primary key and unique (organisation, VIN).
 * Then the deferred search index merge and a search for the file's last row.
 */
export async function benchPortfolio({ databaseUrl }: BenchContext): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-bench-portfolio-'));
  const db = createPool(databaseUrl, 8);
  try {
    await migrate(db);
    const csv = path.join(dir, 'million.csv');
    const t = performance.now();
    await writeCsv(csv);
    console.log(
      `\nPortfolio upload: ${ROWS.toLocaleString('en')} rows, ${mb((await stat(csv)).size)} CSV generated in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    const organisationId = await createOrganisation(db, `Бенчмарк портфеля ${Date.now()}`);
    const userId = await createUserAccount(db, {
      organisationId,
      email: `portfolio-${Date.now()}@bench.ru`,
      fullName: 'Бенч',
      role: 'analyst',
      password: 'bench-password',
    });

    /** COPY of the CSV into `table` (created by `create`, dropped after): its time in ms. */
    const copyInto = async (table: string, create: string[], columns: string): Promise<number> => {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
      for (const statement of create) {
        await db.query(statement);
      }
      const client = await db.connect();
      const started = performance.now();
      try {
        await pipeline(
          createReadStream(csv),
          client.query(
            copyFrom(`COPY ${table} (${columns}) FROM STDIN (FORMAT csv, DELIMITER ';', HEADER true)`),
          ),
        );
      } finally {
        client.release();
      }
      const ms = performance.now() - started;
      await db.query(`DROP TABLE ${table}`);
      return ms;
    };
    // The reference: COPY of the same file into a table with the two constraints correctness needs
    // (the items' primary key, unique VIN per organisation).
    const bareMs = await copyInto(
      'bench_reference_copy',
      [
        `CREATE TABLE bench_reference_copy (
           id uuid PRIMARY KEY DEFAULT pw_uuid_v7(),
           organisation_id uuid NOT NULL DEFAULT '${organisationId}',
           vin text NOT NULL, label text, contract_number text, pledgor_name text,
           UNIQUE (organisation_id, vin))`,
      ],
      'vin, label, contract_number, pledgor_name',
    );
    // The floor of any upload into the items table as it is: COPY of the same file straight into a
    // copy of monitoring_items with its B-tree indexes (the list's sort orders, the identity key),
    // no trigger, no foreign key, no validation; then with its search index too.
    const itemsCopy = (table: string, withSearchIndex: boolean) => [
      `CREATE TABLE ${table} (LIKE monitoring_items INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING INDEXES)`,
      `ALTER TABLE ${table} ALTER organisation_id SET DEFAULT '${organisationId}',
         ALTER kind SET DEFAULT 'vin', ALTER origin SET DEFAULT 'upload'`,
      ...(withSearchIndex
        ? []
        : [
            `DO $$ DECLARE name text; BEGIN
               FOR name IN SELECT indexname FROM pg_indexes WHERE tablename = '${table}' AND indexdef LIKE '%USING gin%'
               LOOP EXECUTE format('DROP INDEX %I', name); END LOOP; END $$`,
          ]),
    ];
    const itemColumns = 'identifier, label, contract_number, pledgor_name';
    const floorMs = await copyInto(
      'bench_items_floor_copy',
      itemsCopy('bench_items_floor_copy', false),
      itemColumns,
    );
    const floorSearchMs = await copyInto(
      'bench_items_floor_search_copy',
      itemsCopy('bench_items_floor_search_copy', true),
      itemColumns,
    );

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...IMPORTING_PROCESS_FLAGS,
        path.join(import.meta.dirname, 'portfolio-import.child.ts'),
        databaseUrl,
        organisationId,
        userId,
        csv,
        dir,
      ],
      { maxBuffer: 1024 * 1024 },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      receiveMs: number;
      validateMs: number;
      importMs: number;
      totalMs: number;
      searchReadyMs: number;
      searchMs: number;
      searchHits: number;
      listTotal: number;
      peakRss: number;
      upload: { status: string; rows_total: number; rows_accepted: number; rows_rejected: number };
    };
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`reference: COPY, primary key + unique ${s(bareMs)}`);
    console.log(
      `floor: COPY into a copy of monitoring_items with its B-tree indexes ${s(floorMs)} (${(floorMs / bareMs).toFixed(2)}× the reference); with its search index too ${s(floorSearchMs)} (${(floorSearchMs / bareMs).toFixed(2)}×)`,
    );
    console.log(
      `upload pipeline (service + jobs)     ${s(result.totalMs)}  = receive ${s(result.receiveMs)} + validate ${s(result.validateMs)} + import ${s(result.importMs)} (to the rows in the list)`,
    );
    console.log(
      `ratio pipeline / reference          ${(result.totalMs / bareMs).toFixed(2)}× (target ≤ 1.5×)`,
    );
    console.log('phases (each / reference):');
    for (const [phase, ms, what] of [
      ['receive', result.receiveMs, 'request body streamed to disk'],
      ['validate', result.validateMs, 'parse + row rules + COPY into staging + duplicate summary'],
      ['import', result.importMs, 'staging → monitoring_items (indexes, FK, counts, rollups) + list page'],
    ] as const) {
      console.log(
        `  ${phase.padEnd(9)} ${s(ms).padStart(8)}  ${(ms / bareMs).toFixed(2).padStart(7)}×  ${what}`,
      );
    }
    console.log(`peak RSS of the importing process    ${mb(result.peakRss)} (target ≤ 300 MB)`);
    console.log(
      `upload: ${result.upload.status}, rows ${result.upload.rows_total}, accepted ${result.upload.rows_accepted}, rejected ${result.upload.rows_rejected}; list total ${result.listTotal}`,
    );
    console.log(
      `search index merged ${s(result.searchReadyMs)} after the rows are in the list; then a contract search ${result.searchMs.toFixed(0)} ms (${result.searchHits} hit)`,
    );
    console.log(
      `RESULT portfolio rows=${ROWS} ratio=${(result.totalMs / bareMs).toFixed(2)} rss_mb=${(result.peakRss / 1024 / 1024).toFixed(0)} total_s=${(result.totalMs / 1000).toFixed(1)} reference_s=${(bareMs / 1000).toFixed(1)} search_ready_s=${(result.searchReadyMs / 1000).toFixed(1)} floor_ratio=${(floorMs / bareMs).toFixed(2)} floor_search_ratio=${(floorSearchMs / bareMs).toFixed(2)}`,
    );

    // The items page on a large portfolio: items.bench.ts (`npm run bench -- items`).
  } finally {
    await db.end();
    await rm(dir, { recursive: true, force: true });
  }
}
