/**
 * A regular run on a fixed dataset against the reference path: every item asked of every source one
 * by one (the one-time check's lookup) and diffed in JS. The set-based batches must produce exactly
 * the same events, and every checked item must show its batch's time as its last check.
 */
import { type Finding, SOURCE_TYPES } from '@pledgewatch/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import type { BatchFindingsSql, CheckItem } from '../sources/source-adapter.ts';
import { createSourceAdapters } from '../sources/source-registry.ts';
import { addItems, importRecords, runChecksNow } from '../testing/checks-test-helpers.ts';
import { writeSnapshots } from './batch-findings.queries.ts';
import { diffDatasetBatch, findUnchangedSources } from './batch-matching.queries.ts';
import { diffFindings } from './findings-diff.ts';

// Four items a batch: the twelve VINs are three batches, so ranges and their edges are exercised.
const { app, config } = await buildTestApp({ config: { checkBatchSize: 4 } });

const vin = (n: number) => `XTA${String(n).padStart(14, '0')}`;
const passport = (n: number) => String(4_500_000_000 + n);

const pledge = (v: string, notice: string, status = 'active') => ({
  vin: v,
  notice_number: notice,
  status,
  registered_at: '2025-02-01',
  pledgee: 'ООО «Другой кредитор»',
});
const registration = (v: string, id: string, operation: string, date: string) => ({
  vin: v,
  record_id: id,
  operation,
  date,
});

/** The fixed datasets: stage 2 adds, changes and removes findings of stage 1. */
const datasets = (stage: 1 | 2): Record<string, Record<string, unknown>[]> => ({
  pledges: [
    pledge(vin(1), 'N-1', stage === 1 ? 'active' : 'excluded'),
    pledge(vin(2), 'N-2a'),
    ...(stage === 1 ? [pledge(vin(2), 'N-2b')] : []),
    pledge(vin(12), 'N-12'),
    ...(stage === 2 ? [pledge(vin(8), 'N-8')] : []),
  ],
  wanted: [
    ...(stage === 1 ? [{ vin: vin(3), record_id: 'W-3', since: '2025-01-10' }] : []),
    ...(stage === 2 ? [{ vin: vin(7), record_id: 'W-7', since: '2026-01-10' }] : []),
    { vin: vin(99), record_id: 'W-99', since: '2020-01-01' },
  ],
  restrictions: [
    { vin: vin(4), record_id: 'R-4', kind: stage === 1 ? 'Запрет' : 'Арест', imposed_at: '2025-04-04' },
  ],
  registration: [
    registration(vin(5), 'G1', 'Первичная регистрация', '2019-05-05'),
    registration(vin(9), 'G9', 'Первичная регистрация', '2020-05-05'),
    ...(stage === 2 ? [registration(vin(5), 'G2', 'Смена владельца', '2026-01-05')] : []),
  ],
  accidents: [
    { vin: vin(6), record_id: 'A-6', date: '2025-06-06' },
    ...(stage === 2 ? [{ vin: vin(10), record_id: 'A-10', date: '2026-02-02' }] : []),
  ],
  bankruptcy: [
    {
      document_type: 'passport_rf',
      document_number: passport(1),
      case_number: 'А40-1/2025',
      status: stage === 1 ? 'open' : 'closed',
      opened_at: '2025-03-03',
    },
  ],
  enforcement: [
    {
      document_type: 'passport_rf',
      document_number: passport(2),
      proceeding_number: 'E-2',
      status: 'open',
      opened_at: '2025-03-03',
    },
  ],
  passport: [
    { document_number: passport(3), reason: 'Утрачен' },
    ...(stage === 2 ? [{ document_number: passport(4), reason: 'Недействителен' }] : []),
  ],
});

let staff: TestUser;
let analyst: TestUser;
let items: (CheckItem & { id: string })[];
let pausedId: string;

async function loadDatasets(stage: 1 | 2) {
  for (const [type, records] of Object.entries(datasets(stage))) {
    await importRecords(app, staff.token, type, records);
  }
}

interface ComparableEvent {
  item: string;
  source: string;
  type: string;
  key: string;
  before: unknown;
  after: unknown;
  firstCheck: boolean;
}
const order = (events: ComparableEvent[]) =>
  events.toSorted((a, b) =>
    `${a.item}|${a.source}|${a.key}|${a.type}`.localeCompare(`${b.item}|${b.source}|${b.key}|${b.type}`),
  );

/** The reference: each item asked of each source alone, diffed against what it answered last time. */
const previous = new Map<string, Finding[]>();
async function referenceEvents(
  firstCheck: boolean,
  firstCheckIds: ReadonlySet<string> = new Set(),
): Promise<ComparableEvent[]> {
  const events: ComparableEvent[] = [];
  const adapters = createSourceAdapters({ db: app.db, config, organisationId: analyst.organisationId });
  for (const item of items) {
    for (const adapter of adapters.filter((a) => a.answersFor(item))) {
      const answer = await adapter.check(item);
      expect(answer.status).toBe('ok');
      const key = `${item.id}|${adapter.type}`;
      const drafts = diffFindings({
        source: adapter.type,
        before: previous.get(key) ?? [],
        after: answer.findings,
        firstCheck: firstCheck || firstCheckIds.has(item.id),
        organisationId: analyst.organisationId,
      });
      previous.set(key, answer.findings);
      for (const draft of drafts) {
        events.push({
          item: item.id,
          source: adapter.type,
          type: draft.type,
          key: draft.findingKey,
          before: draft.before,
          after: draft.after,
          firstCheck: draft.firstCheck,
        });
      }
    }
  }
  return order(events);
}

async function runEvents(runId: string): Promise<ComparableEvent[]> {
  const { rows } = await app.db.query<ComparableEvent>(
    `SELECT item_id::text AS item, source_type AS source, event_type AS type, finding_key AS key, before, after,
            first_check AS "firstCheck"
       FROM monitoring_events WHERE run_id = $1`,
    [runId],
  );
  return order(rows);
}

beforeAll(async () => {
  staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
  analyst = await createSignedInUser(app, { role: 'analyst' });
  await loadDatasets(1);
  const vins = Array.from({ length: 12 }, (_, i) => vin(i + 1));
  const passports = [1, 2, 3, 4].map(passport);
  const ids = await addItems(app, analyst.organisationId, [
    ...vins.map((identifier) => ({ kind: 'vin' as const, identifier })),
    ...passports.map((identifier) => ({
      kind: 'document' as const,
      documentType: 'passport_rf',
      identifier,
    })),
  ]);
  items = [
    ...vins.map((identifier, i) => ({ id: ids[i]!, kind: 'vin' as const, documentType: null, identifier })),
    ...passports.map((identifier, i) => ({
      id: ids[12 + i]!,
      kind: 'document' as const,
      documentType: 'passport_rf' as const,
      identifier,
    })),
  ];
  // A paused item inside a batch's range: neither checked nor stamped.
  pausedId = (
    await addItems(app, analyst.organisationId, [{ kind: 'vin', identifier: `${vin(6)}`.replace(/6$/, 'P') }])
  )[0]!;
  await app.db.query(`UPDATE monitoring_items SET status = 'paused' WHERE id = $1`, [pausedId]);
});

describe('a regular run against the item-by-item reference', () => {
  it('the first run raises exactly the reference events', async () => {
    const expected = await referenceEvents(true);
    // The fixture means something: first-check events of seven sources (not the registration history).
    expect(expected.map((e) => e.type).sort()).toEqual(
      [
        'accident_recorded',
        'bankruptcy_opened',
        'enforcement_opened',
        'passport_invalid',
        'pledge_registered_other',
        'pledge_registered_other',
        'pledge_registered_other',
        'pledge_registered_other',
        'restriction_added',
        'wanted_added',
      ].sort(),
    );
    const run = await runChecksNow(app, config, analyst.token);
    expect(run).toMatchObject({ status: 'completed', itemsDone: 16, batchesTotal: 4 });
    expect(await runEvents(run.id)).toEqual(expected);
  });

  it('a run over changed datasets raises exactly the reference change events', async () => {
    await loadDatasets(2);
    const expected = await referenceEvents(false);
    expect(expected.length).toBeGreaterThanOrEqual(8);
    expect(new Set(expected.map((e) => e.source)).size).toBeGreaterThanOrEqual(6);
    const run = await runChecksNow(app, config, analyst.token);
    expect(await runEvents(run.id)).toEqual(expected);
  });

  it('a run over unchanged datasets raises none, as the reference', async () => {
    expect(await referenceEvents(false)).toEqual([]);
    const run = await runChecksNow(app, config, analyst.token);
    expect(run.eventsCreated).toBe(0);
    expect(await runEvents(run.id)).toEqual([]);
  });
});

describe('the last check of each item', () => {
  it('is its batch of the latest run, in the item card, the list and its sort; a paused item keeps none', async () => {
    const { rows } = await app.db.query<{ id: string; finished_at: Date }>(
      `SELECT i.id, b.finished_at FROM monitoring_items i
         JOIN check_run_batches b ON b.kind = i.kind AND i.identifier BETWEEN b.identifier_from AND b.identifier_to
        WHERE i.organisation_id = $1 AND i.status = 'active'
          AND b.run_id = (SELECT id FROM check_runs WHERE organisation_id = $1 ORDER BY created_at DESC LIMIT 1)`,
      [analyst.organisationId],
    );
    expect(rows).toHaveLength(16);
    // Batches finish one after another: their times differ, so a wrong range would show.
    expect(new Set(rows.map((row) => row.finished_at.toISOString())).size).toBe(4);
    const expected = new Map(rows.map((row) => [row.id, row.finished_at.toISOString()]));

    const read = async (url: string) =>
      (await app.inject({ method: 'GET', url, headers: bearer(analyst.token) })).json();
    for (const id of [items[0]!.id, items[11]!.id, items[15]!.id]) {
      expect((await read(`/api/v1/monitoring/items/${id}`)).lastCheckedAt).toBe(expected.get(id));
    }
    expect((await read(`/api/v1/monitoring/items/${pausedId}`)).lastCheckedAt).toBeNull();

    for (const entity of ['vin', 'document']) {
      const list = await read(
        `/api/v1/monitoring/items?entity=${entity}&status=all&sort=lastCheckedAt&order=desc&pageSize=50`,
      );
      const shown: { id: string; lastCheckedAt: string | null }[] = list.items;
      expect(shown).toHaveLength(entity === 'vin' ? 13 : 4);
      for (const item of shown.filter((i) => i.id !== pausedId)) {
        expect(item.lastCheckedAt).toBe(expected.get(item.id));
      }
      const times = shown.map((i) => i.lastCheckedAt ?? '');
      // Descending with the never-checked item first (NULLS FIRST in a descending sort).
      expect(times).toEqual(times.toSorted((a, b) => (a === '' ? -1 : b === '' ? 1 : b.localeCompare(a))));
    }
  });
});

/**
 * A batch matches a dataset source only when something the match reads changed since the range's
 * last match (issue #15): its items, the source's records or, for pledges, the tenants' registry.
 * Every such change must still be found: the events stay the reference's, the snapshots current.
 */
describe('a repeated run over unchanged inputs', () => {
  /** The dataset sources a run matched again, per batch (sources with no item of a batch are left out). */
  async function matchedSources(runId: string): Promise<{ batch: number; source: string }[]> {
    const { rows } = await app.db.query<{ batch: number; source: string; unchanged: boolean; items: number }>(
      `SELECT b.batch_no AS batch, s.key AS source, coalesce((s.value->>'unchanged')::boolean, false) AS unchanged,
              (s.value->>'items')::int AS items
         FROM check_run_batches b, jsonb_each(b.sources) s WHERE b.run_id = $1 ORDER BY 1, 2`,
      [runId],
    );
    expect(rows.length).toBeGreaterThan(0);
    return rows
      .filter((row) => !row.unchanged && row.items > 0)
      .map(({ batch, source }) => ({ batch, source }));
  }
  const batchOf = async (runId: string, identifier: string) => {
    const { rows } = await app.db.query<{ batch_no: number }>(
      `SELECT batch_no FROM check_run_batches WHERE run_id = $1 AND $2 BETWEEN identifier_from AND identifier_to`,
      [runId, identifier],
    );
    return rows[0]!.batch_no;
  };

  it('matches no source again when nothing changed, and raises nothing', async () => {
    expect(await referenceEvents(false)).toEqual([]);
    const run = await runChecksNow(app, config, analyst.token);
    expect(run).toMatchObject({ status: 'completed', itemsDone: 16, eventsCreated: 0 });
    expect(await matchedSources(run.id)).toEqual([]);
    // The run's summary still counts every item checked and every finding, as a matched run does.
    const wanted = run.sources.find((source: { type: string }) => source.type === 'wanted');
    expect(wanted).toMatchObject({ itemsChecked: 12, findings: 1, batchesFailed: 0 });
  });

  it('matches again the sources whose records changed in place, and finds the new records', async () => {
    // Written by hand into the active import, as a fixture or a repair would: no import names its type.
    // (The passport list has no records here: each of its versions is a table of its own, never changed.)
    await app.db.query(
      `INSERT INTO source_records (import_id, document_type, identifier, finding_key, payload)
       SELECT id, '', $1, 'added-in-place', jsonb_build_object('record_id', 'W-11', 'since', '2026-03-03')
         FROM source_imports WHERE status = 'active' AND source_type = 'wanted'`,
      [vin(11)],
    );
    const expected = await referenceEvents(false);
    expect(expected.map((e) => e.type).sort()).toEqual(['wanted_added']);
    const run = await runChecksNow(app, config, analyst.token);
    expect(await runEvents(run.id)).toEqual(expected);
    const matched = await matchedSources(run.id);
    expect(matched).toContainEqual({ batch: await batchOf(run.id, vin(11)), source: 'wanted' });
    expect(matched.map((m) => m.source)).not.toContain('passport');
  });

  it("matches again only the pledges source after another tenant's registration, and keeps its finding", async () => {
    const other = await createSignedInUser(app, { role: 'analyst' });
    const { rows } = await app.db.query<{ id: string }>(
      `INSERT INTO pledges (organisation_id, registration_number, contract_number, contract_date, pledgor,
                            pledgor_name, pledgor_document_type, pledgor_identifier, pledgee, pledgee_name, created_on,
                            last_notification_date)
       VALUES ($1, 'N-OTHER-3', 'Д-3', '2026-01-01', '{}', 'Иванов И. И.', 'passport_rf', '4500000999', '{}',
               'ООО «Третий кредитор»', '2026-01-01', '2026-01-01') RETURNING id`,
      [other.organisationId],
    );
    await app.db.query(
      'INSERT INTO pledge_vehicles (pledge_id, organisation_id, position, vin) VALUES ($1, $2, 0, $3)',
      [rows[0]!.id, other.organisationId, vin(3)],
    );
    const expected = await referenceEvents(false);
    const run = await runChecksNow(app, config, analyst.token);
    expect(await runEvents(run.id)).toEqual(expected);
    expect(new Set((await matchedSources(run.id)).map((m) => m.source))).toEqual(new Set(['pledges']));
    // The item's findings (its card) hold the registration: the skip left no stale snapshot.
    const snapshot = await app.db.query<{ findings: { key: string }[] }>(
      `SELECT findings FROM finding_snapshots WHERE item_id = $1 AND source_type = 'pledges'`,
      [items[2]!.id],
    );
    expect(snapshot.rows[0]?.findings.map((f) => f.key)).toContain('N-OTHER-3');
  });

  it('matches again the batch whose items changed though its range did not, with first-check events', async () => {
    // The same VIN, removed and added again: a new item in the same range with the same identifiers.
    const replaced = items[1]!;
    await app.db.query('DELETE FROM monitoring_items WHERE id = $1', [replaced.id]);
    const [id] = await addItems(app, analyst.organisationId, [
      { kind: 'vin', identifier: replaced.identifier },
    ]);
    items[1] = { ...replaced, id: id! };
    const expected = await referenceEvents(false, new Set([id!]));
    expect(expected).toContainEqual(
      expect.objectContaining({ item: id, type: 'pledge_registered_other', firstCheck: true }),
    );
    const run = await runChecksNow(app, config, analyst.token);
    expect(await runEvents(run.id)).toEqual(expected);
    const batch = await batchOf(run.id, replaced.identifier);
    const matched = await matchedSources(run.id);
    expect(matched.length).toBeGreaterThan(0);
    expect(matched.every((m) => m.batch === batch)).toBe(true);
  });

  it("matches a source again once another path wrote its snapshots (a remote source's answers)", async () => {
    const before = await runChecksNow(app, config, analyst.token);
    expect(await matchedSources(before.id)).toEqual([]);
    const item = items[6]!;
    const current = await app.db.query<{ findings: Finding[] }>(
      `SELECT findings FROM finding_snapshots WHERE item_id = $1 AND source_type = 'wanted'`,
      [item.id],
    );
    await writeSnapshots(app.db, {
      organisationId: analyst.organisationId,
      sourceType: 'wanted',
      runId: before.id,
      items: [{ itemId: item.id, identifier: item.identifier, findings: current.rows[0]!.findings }],
    });
    const run = await runChecksNow(app, config, analyst.token);
    expect(run.eventsCreated).toBe(0);
    const matched = await matchedSources(run.id);
    expect(new Set(matched.map((m) => m.source))).toEqual(new Set(['wanted']));
    // Every batch of VINs (the wanted list has no document): its fingerprints went with the write.
    expect(new Set(matched.map((m) => m.batch)).size).toBe(3);
  });

  it('matches again after a release that changes how a source builds its findings', async () => {
    const wanted = createSourceAdapters({ db: app.db, config, organisationId: analyst.organisationId }).find(
      (adapter) => adapter.type === 'wanted',
    )!;
    const findings = (await wanted.batchFindings!())!;
    const { rows } = await app.db.query<{ identifier_from: string; identifier_to: string }>(
      `SELECT identifier_from, identifier_to FROM check_run_batches
        WHERE run_id = (SELECT id FROM check_runs WHERE organisation_id = $1 ORDER BY created_at DESC LIMIT 1)
          AND kind = 'vin' ORDER BY batch_no LIMIT 1`,
      [analyst.organisationId],
    );
    const scope = {
      organisationId: analyst.organisationId,
      kind: 'vin' as const,
      identifierFrom: rows[0]!.identifier_from,
      identifierTo: rows[0]!.identifier_to,
      kinds: SOURCE_TYPES.wanted.itemKinds,
      documentTypes: null,
    };
    const unchanged = (match: BatchFindingsSql) =>
      findUnchangedSources(app.db, scope, [{ type: 'wanted', findings: match }]).then((found) => [
        ...found.keys(),
      ]);
    expect(await unchanged(findings)).toEqual(['wanted']);
    // The same inputs, matched by a statement of another release: not the match the fingerprint recorded.
    expect(await unchanged({ ...findings, sql: (p) => `${findings.sql(p)} -- another release` })).toEqual([]);
  });

  it("takes the last run's plan while the items stay the same, and plans anew once they change", async () => {
    const plan = async (runId: string) =>
      (
        await app.db.query<{ planned_from: string | null; batches: unknown[] }>(
          `SELECT planned_from,
                  (SELECT json_agg(json_build_array(kind, identifier_from, identifier_to, items) ORDER BY batch_no)
                     FROM check_run_batches WHERE run_id = r.id) AS batches
             FROM check_runs r WHERE id = $1`,
          [runId],
        )
      ).rows[0]!;
    const first = await runChecksNow(app, config, analyst.token);
    const second = await runChecksNow(app, config, analyst.token);
    expect(second).toMatchObject({ status: 'completed', itemsDone: 16, batchesTotal: 4 });
    expect(await plan(second.id)).toEqual({
      planned_from: first.id,
      batches: (await plan(first.id)).batches,
    });

    // An item added: ranked again, and the new item is in a batch.
    const [added] = await addItems(app, analyst.organisationId, [{ kind: 'vin', identifier: vin(13) }]);
    const third = await runChecksNow(app, config, analyst.token);
    expect(await plan(third.id)).toMatchObject({ planned_from: null });
    expect(third).toMatchObject({ status: 'completed', itemsDone: 17 });
    // An item paused: ranked again without it.
    await app.db.query(`UPDATE monitoring_items SET status = 'paused' WHERE id = $1`, [added]);
    const fourth = await runChecksNow(app, config, analyst.token);
    expect(await plan(fourth.id)).toMatchObject({ planned_from: null });
    expect(fourth).toMatchObject({ status: 'completed', itemsDone: 16 });
  });

  it('matches again the batch of an item whose document type changed, though nothing else did', async () => {
    await runChecksNow(app, config, analyst.token);
    const item = items[12]!;
    await app.db.query(`UPDATE monitoring_items SET document_type = 'driving_licence' WHERE id = $1`, [
      item.id,
    ]);
    items[12] = { ...item, documentType: 'driving_licence' };
    const expected = await referenceEvents(false);
    const run = await runChecksNow(app, config, analyst.token);
    expect(await runEvents(run.id)).toEqual(expected);
    // The passport sources' items of that batch are no longer those they matched.
    expect(await matchedSources(run.id)).toContainEqual({
      batch: await batchOf(run.id, item.identifier),
      source: 'bankruptcy',
    });
  });
});

/**
 * The registration history raises nothing on an item's first check (raisesOnFirstCheck): a match
 * writes those items' snapshots but does not send their findings back (issue #15, a third of a
 * first run's matched findings in the benchmark).
 */
describe('first checks of a source that raises nothing on them', () => {
  it('writes the snapshots without reading the findings back (registration), unlike pledges', async () => {
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      const neverChecked = [vin(5), vin(9), vin(12)];
      await client.query(
        `DELETE FROM finding_snapshots s USING monitoring_items i WHERE i.id = s.item_id AND i.identifier = ANY($1)`,
        [neverChecked],
      );
      await client.query(
        `UPDATE monitoring_item_checks SET unranged_since = now(), last_checked_at = NULL WHERE identifier = ANY($1)`,
        [neverChecked],
      );
      const { rows: runs } = await client.query<{ id: string }>(
        'SELECT id FROM check_runs WHERE organisation_id = $1 ORDER BY created_at DESC LIMIT 1',
        [analyst.organisationId],
      );
      const adapters = createSourceAdapters({ db: client, config, organisationId: analyst.organisationId });
      const match = async (type: 'registration' | 'pledges') => {
        const findings = await adapters.find((adapter) => adapter.type === type)!.batchFindings!();
        return diffDatasetBatch(client, {
          organisationId: analyst.organisationId,
          kind: 'vin',
          identifierFrom: vin(1),
          identifierTo: vin(99),
          kinds: SOURCE_TYPES[type].itemKinds,
          documentTypes: null,
          sourceType: type,
          runId: runs[0]!.id,
          findings: findings!,
        });
      };
      const registration = await match('registration');
      expect(registration.changes).toEqual([]);
      expect(registration.findings).toBe(2);
      const { rows: snapshots } = await client.query<{ identifier: string; keys: string[] }>(
        `SELECT identifier, (SELECT array_agg(f->>'key' ORDER BY f->>'key') FROM jsonb_array_elements(findings) f) AS keys
           FROM finding_snapshots WHERE source_type = 'registration' AND identifier = ANY($1) ORDER BY identifier`,
        [neverChecked],
      );
      expect(snapshots).toEqual([
        { identifier: vin(5), keys: ['G1', 'G2'] },
        { identifier: vin(9), keys: ['G9'] },
      ]);
      const pledges = await match('pledges');
      expect(pledges.changes.map((change) => [change.first_check, change.after?.map((f) => f.key)])).toEqual([
        [true, ['N-12']],
      ]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
