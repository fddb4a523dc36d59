import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { moscowDate, moscowInstant } from '../../lib/moscow-time.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { startDueScheduledRuns } from './runs/check-schedule.service.ts';
import {
  addItems,
  encodeCp1251,
  importRecords,
  importSourceFile,
  multipartFile,
  randomPassport,
  randomVin,
  runChecksNow,
} from './testing/checks-test-helpers.ts';

const { app, config } = await buildTestApp();

const get = (url: string, token: string) => app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (url: string, payload: object, token: string) =>
  app.inject({ method: 'POST', url, payload, headers: bearer(token) });

let staff: TestUser;
let analyst: TestUser;
let viewer: TestUser;
let admin: TestUser;
let other: TestUser;

const pledgedVin = randomVin();
const wantedVin = randomVin();
const historyVin = randomVin();
const cleanVin = randomVin();
const bankruptPassport = randomPassport();
const invalidPassport = randomPassport();

const pledge = (vin: string, status = 'active') => ({
  vin,
  notice_number: `N-${vin}`,
  status,
  registered_at: '2025-02-01',
  pledgee: 'ООО «Другой кредитор»',
});
const datasets = (stage: 1 | 2) => ({
  pledges: [pledge(pledgedVin, stage === 1 ? 'active' : 'excluded')],
  wanted: stage === 1 ? [{ vin: wantedVin, record_id: `W-${wantedVin}`, since: '2025-01-10' }] : [],
  restrictions: [],
  registration: [
    { vin: historyVin, record_id: 'G1', operation: 'Первичная регистрация', date: '2019-05-05' },
    ...(stage === 2
      ? [{ vin: historyVin, record_id: 'G2', operation: 'Смена владельца', date: '2026-01-05' }]
      : []),
  ],
  accidents: [],
  bankruptcy: [
    {
      document_type: 'passport_rf',
      document_number: bankruptPassport,
      case_number: 'А40-1/2025',
      status: 'open',
      opened_at: '2025-03-03',
    },
  ],
  enforcement: [],
  passport: [{ document_number: invalidPassport, reason: 'Утрачен' }],
});

/** A record about a vehicle or person outside every portfolio, for sources that should find nothing. */
const PLACEHOLDERS: Record<string, Record<string, unknown>> = {
  wanted: { vin: randomVin(), record_id: 'W0', since: '2020-01-01' },
  restrictions: { vin: randomVin(), record_id: 'R0', kind: 'Запрет', imposed_at: '2020-01-01' },
  accidents: { vin: randomVin(), record_id: 'A0', date: '2020-01-01' },
  enforcement: {
    document_type: 'passport_rf',
    document_number: randomPassport(),
    proceeding_number: 'E0',
    status: 'open',
    opened_at: '2020-01-01',
  },
};

async function loadDatasets(stage: 1 | 2) {
  for (const [type, records] of Object.entries(datasets(stage))) {
    await importRecords(app, staff.token, type, records.length > 0 ? records : [PLACEHOLDERS[type]!]);
  }
}

beforeAll(async () => {
  staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
  analyst = await createSignedInUser(app, { role: 'analyst' });
  viewer = await createSignedInUser(app, { role: 'viewer', organisationId: analyst.organisationId });
  admin = await createSignedInUser(app, { role: 'admin', organisationId: analyst.organisationId });
  other = await createSignedInUser(app, { role: 'admin' });
  await loadDatasets(1);
});

describe('dataset sources', () => {
  it('imports a CSV version for staff only, reports bad rows and lists the source', async () => {
    const csv =
      'vin;record_id;date;region;kind\n' +
      `${randomVin()};ДТП-1;01.02.2025;Москва;Столкновение\n` +
      'BAD-VIN;ДТП-2;2025-02-02;;\n' +
      `${randomVin()};ДТП-3;2025-13-40;;\n`;
    const file = multipartFile('accidents.csv', csv);
    const forbidden = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/sources/accidents/imports',
      payload: file.payload,
      headers: { ...file.headers, ...bearer(analyst.token) },
    });
    expect(forbidden.statusCode).toBe(403);

    // Received and queued (202), then imported by the job.
    const created = await importSourceFile(app, staff.token, 'accidents', 'accidents.csv', csv);
    expect(created).toMatchObject({
      sourceType: 'accidents',
      status: 'active',
      recordsTotal: 1,
      rowsRejected: 2,
    });
    expect(created.errors.map((e: { row: number }) => e.row)).toEqual([3, 4]);
    expect(created.errors[1]!.message).toContain('date: дата в формате');

    const sources = (await get('/api/v1/monitoring/sources', viewer.token)).json().items;
    const accidents = sources.find((s: { type: string }) => s.type === 'accidents');
    expect(accidents).toMatchObject({
      name: 'ДТП',
      adapter: 'dataset',
      activeVersion: created.version,
      recordCount: 1,
    });
    expect(sources).toHaveLength(8);

    const history = (await get('/api/v1/monitoring/sources/accidents/imports', viewer.token)).json();
    expect(history.items[0].version).toBe(created.version);
    // Back to the accidents dataset the other tests expect.
    await importRecords(app, staff.token, 'accidents', [PLACEHOLDERS.accidents!]);
  });

  it('reads a dataset CSV as an upload is read: Windows-1251, tabs, quoted cells, capped cells', async () => {
    const vins = [randomVin(), randomVin(), randomVin()];
    const note = 'Удар; «сильный» и "так"\r\nвторая строка';
    const csv =
      'vin\trecord_id\tdate\tregion\tnote\r\n' +
      `${vins[0]}\tДТП-10\t01.02.2025\tМосква\t"${note.replaceAll('"', '""')}"\r\n` +
      '\t\t\t\t\r\n' + // a blank row: skipped, but counted in the row numbers
      `${vins[1]}\tДТП-11\t2025-02-03\t${'Я'.repeat(5000)}\t\r\n` +
      `${vins[2]}\tДТП-12\t2025-02-04\tТверь\t\r\n`;
    const created = await importSourceFile(app, staff.token, 'accidents', 'accidents.csv', encodeCp1251(csv));
    expect(created).toMatchObject({ status: 'active', recordsTotal: 2, rowsRejected: 1 });
    expect(created.errors).toEqual([{ row: 4, message: 'region: не длиннее 1000 символов' }]);
    const { rows } = await app.db.query<{ identifier: string; payload: Record<string, unknown> }>(
      'SELECT identifier, payload FROM source_records WHERE import_id = $1 ORDER BY finding_key',
      [created.id],
    );
    expect(rows).toEqual([
      {
        identifier: vins[0],
        payload: { record_id: 'ДТП-10', date: '2025-02-01', region: 'Москва', note },
      },
      { identifier: vins[2], payload: { record_id: 'ДТП-12', date: '2025-02-04', region: 'Тверь' } },
    ]);
    await importRecords(app, staff.token, 'accidents', [PLACEHOLDERS.accidents!]);
  });

  it('refuses a file without a single good row: the version fails in Russian, the active one stays', async () => {
    const active = async () =>
      (await get('/api/v1/monitoring/sources', viewer.token))
        .json()
        .items.find((source: { type: string }) => source.type === 'wanted').activeVersion;
    const before = await active();
    const failed = await importSourceFile(
      app,
      staff.token,
      'wanted',
      'wanted.csv',
      'vin,record_id,since\nXXX,1,2025-01-01\n',
    );
    expect(failed).toMatchObject({ status: 'failed', failure: 'В файле нет ни одной подходящей записи' });
    expect(failed.errors[0]).toMatchObject({ row: 2 });
    expect(await active()).toBe(before);
    const { rows } = await app.db.query('SELECT 1 FROM source_records WHERE import_id = $1', [failed.id]);
    expect(rows).toEqual([]);

    // An empty file and a JSON that is not a list of records are refused too.
    const empty = multipartFile('wanted.csv', '');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/sources/wanted/imports',
      payload: empty.payload,
      headers: { ...empty.headers, ...bearer(staff.token) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Файл пуст: нет ни заголовка, ни строк');
    const notJson = await importSourceFile(app, staff.token, 'wanted', 'wanted.json', '{"vin": ');
    expect(notJson).toMatchObject({
      status: 'failed',
      failure: expect.stringContaining('Не удалось прочитать файл'),
    });
    expect(await active()).toBe(before);
  });
});

describe('regular check runs and events', () => {
  let itemIds: string[];

  it('turns findings into events on the first run, and only the «added» kind', async () => {
    itemIds = await addItems(app, analyst.organisationId, [
      { kind: 'vin', identifier: pledgedVin, label: 'Kia Rio' },
      { kind: 'vin', identifier: wantedVin },
      { kind: 'vin', identifier: historyVin },
      { kind: 'vin', identifier: cleanVin },
      { kind: 'document', documentType: 'passport_rf', identifier: bankruptPassport },
      { kind: 'document', documentType: 'passport_rf', identifier: invalidPassport },
    ]);
    const run = await runChecksNow(app, config, analyst.token);
    expect(run).toMatchObject({ status: 'completed', itemsTotal: 6, itemsDone: 6, eventsCreated: 4 });
    const pledges = run.sources.find((s: { type: string }) => s.type === 'pledges');
    // Batches are cut per item kind: one of VINs, one of documents.
    expect(run.batchesTotal).toBe(2);
    expect(pledges).toMatchObject({
      name: 'Реестр залогов',
      batchesDone: 2,
      batchesFailed: 0,
      findings: 1,
      events: 1,
    });

    const events = (await get('/api/v1/monitoring/events/items', analyst.token)).json();
    expect(events.total).toBe(4);
    expect(events.unread).toBe(4);
    expect(events.items.map((e: { type: string }) => e.type).sort()).toEqual(
      ['bankruptcy_opened', 'passport_invalid', 'pledge_registered_other', 'wanted_added'].sort(),
    );
    const pledgeEvent = events.items.find((e: { type: string }) => e.type === 'pledge_registered_other');
    expect(pledgeEvent).toMatchObject({
      typeLabel: 'Залог зарегистрирован другим кредитором',
      severity: 'critical',
      source: 'pledges',
      sourceName: 'Реестр залогов',
      before: null,
      firstCheck: true,
      read: false,
      item: { identifier: pledgedVin, label: 'Kia Rio', kind: 'vin' },
    });
    expect(pledgeEvent.after).toMatchObject({
      notice_number: `N-${pledgedVin}`,
      pledgee: 'ООО «Другой кредитор»',
    });

    const { rows } = await app.db.query(
      'SELECT count(*)::int AS n FROM monitoring_item_checks WHERE item_id = ANY($1) AND item_last_checked_at(item_id) IS NOT NULL',
      [itemIds],
    );
    expect(rows[0].n).toBe(6);

    const findings = (await get(`/api/v1/monitoring/items/${itemIds[2]}/findings`, viewer.token)).json();
    expect(findings.sources.map((s: { type: string }) => s.type)).toEqual([
      'pledges',
      'wanted',
      'restrictions',
      'registration',
      'accidents',
    ]);
    expect(findings.sources.find((s: { type: string }) => s.type === 'registration').findings).toHaveLength(
      1,
    );
  });

  it('a repeated run creates nothing', async () => {
    const run = await runChecksNow(app, config, analyst.token);
    expect(run).toMatchObject({ status: 'completed', eventsCreated: 0, itemsDone: 6 });
    expect((await get('/api/v1/monitoring/events/items', analyst.token)).json().total).toBe(4);
  });

  it("shows each source's speed from regular runs too, not only from one-time checks", async () => {
    const sources = (await get('/api/v1/monitoring/sources', viewer.token)).json();
    for (const type of ['pledges', 'wanted', 'bankruptcy']) {
      const source = sources.items.find((s: { type: string }) => s.type === type);
      expect(source.batchP50Ms, type).toBeTypeOf('number');
      expect(source.batchP95Ms).toBeGreaterThanOrEqual(source.batchP50Ms);
      expect(source.batchItemsP50).toBeGreaterThanOrEqual(1);
      expect(source.consecutiveFailures).toBe(0);
    }
  });

  it('a batch replayed after it committed creates nothing', async () => {
    const { rows } = await app.db.query<{ id: string }>(
      'SELECT id FROM check_runs WHERE organisation_id = $1 ORDER BY created_at LIMIT 1',
      [analyst.organisationId],
    );
    const { processCheckBatch } = await import('./runs/check-batch.service.ts');
    await app.db.query(`UPDATE check_run_batches SET status = 'queued', sources = '{}' WHERE run_id = $1`, [
      rows[0]!.id,
    ]);
    await processCheckBatch({
      db: app.db,
      config,
      queue: app.queue,
      runId: rows[0]!.id,
      batchNo: 0,
      lastAttempt: true,
    });
    expect((await get('/api/v1/monitoring/events/items', analyst.token)).json().total).toBe(4);
  });

  it('adds time per batch phase only to a timings sink passed in, with no module-wide state', async () => {
    const { rows } = await app.db.query<{ id: string }>(
      'SELECT id FROM check_runs WHERE organisation_id = $1 ORDER BY created_at LIMIT 1',
      [analyst.organisationId],
    );
    const runs = await import('./runs/check-batch.service.ts');
    expect(Object.keys(runs)).not.toContain('batchPhaseTimings');
    await app.db.query(`UPDATE check_run_batches SET status = 'queued', sources = '{}' WHERE run_id = $1`, [
      rows[0]!.id,
    ]);
    const timings: Record<string, number> = {};
    await runs.processCheckBatch({
      db: app.db,
      config,
      queue: app.queue,
      runId: rows[0]!.id,
      batchNo: 0,
      lastAttempt: true,
      timings,
    });
    expect(Object.keys(timings)).toEqual(
      expect.arrayContaining([
        'lock batch',
        'insert events',
        'source total',
        'finish batch (last checked, progress)',
        'batch transaction (incl. commit)',
      ]),
    );
    expect(Object.values(timings).every((ms) => ms >= 0)).toBe(true);
    expect((await get('/api/v1/monitoring/events/items', analyst.token)).json().total).toBe(4);
  });

  it('diffs a new dataset version into change events', async () => {
    await loadDatasets(2);
    const run = await runChecksNow(app, config, analyst.token);
    expect(run.eventsCreated).toBe(3);
    const events = (await get(`/api/v1/monitoring/events/items?runId=${run.id}`, analyst.token)).json();
    expect(events.items.map((e: { type: string }) => e.type).sort()).toEqual(
      ['ownership_changed', 'pledge_excluded', 'wanted_removed'].sort(),
    );
    const excluded = events.items.find((e: { type: string }) => e.type === 'pledge_excluded');
    expect(excluded.before.status).toBe('active');
    expect(excluded.after.status).toBe('excluded');
    expect(excluded.firstCheck).toBe(false);
    await loadDatasets(1);
  });

  it('filters, searches and marks events read', async () => {
    const url = '/api/v1/monitoring/events/items';
    const critical = (await get(`${url}?severity=critical&pageSize=50`, analyst.token)).json();
    expect(critical.items.every((e: { severity: string }) => e.severity === 'critical')).toBe(true);
    const bySource = (await get(`${url}?source=pledges,wanted`, analyst.token)).json();
    expect(bySource.total).toBe(4);
    const byType = (await get(`${url}?type=wanted_added`, analyst.token)).json();
    expect(byType.total).toBe(1);
    const search = (
      await get(`${url}?search=${pledgedVin.slice(3, 12).toLowerCase()}`, analyst.token)
    ).json();
    expect(
      search.items.every((e: { item: { identifier: string } }) => e.item.identifier === pledgedVin),
    ).toBe(true);
    expect((await get(`${url}?itemId=${itemIds[1]}`, analyst.token)).json().total).toBe(2);
    const future = (
      await get(`${url}?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`, analyst.token)
    ).json();
    expect(future.total).toBe(0);
    expect((await get(`${url}?type=nonsense`, analyst.token)).statusCode).toBe(422);

    const ids = byType.items.map((e: { id: string }) => e.id);
    expect((await post('/api/v1/monitoring/events/read', { ids }, viewer.token)).statusCode).toBe(403);
    expect((await post('/api/v1/monitoring/events/read', { ids }, analyst.token)).json()).toEqual({
      updated: 1,
    });
    expect((await get(`${url}?read=true`, analyst.token)).json().total).toBe(1);
    await post('/api/v1/monitoring/events/read', { ids, read: false }, analyst.token);
    expect((await get(`${url}?read=true`, analyst.token)).json().total).toBe(0);
    // Another organisation cannot mark them.
    expect((await post('/api/v1/monitoring/events/read', { ids }, other.token)).json()).toEqual({
      updated: 0,
    });
  });

  it('keeps runs, events and findings inside the organisation', async () => {
    const runs = (await get('/api/v1/monitoring/check-runs', analyst.token)).json();
    expect(runs.total).toBeGreaterThanOrEqual(3);
    expect((await get('/api/v1/monitoring/check-runs', other.token)).json().total).toBe(0);
    expect((await get(`/api/v1/monitoring/check-runs/${runs.items[0].id}`, other.token)).statusCode).toBe(
      404,
    );
    expect((await get('/api/v1/monitoring/events/items', other.token)).json()).toMatchObject({
      total: 0,
      unread: 0,
    });
    expect(
      (await get(`/api/v1/monitoring/events/items?itemId=${itemIds[0]}`, other.token)).json().total,
    ).toBe(0);
    expect((await get(`/api/v1/monitoring/items/${itemIds[0]}/findings`, other.token)).statusCode).toBe(404);
  });

  it('lets a viewer read but not start runs; one open run at a time', async () => {
    expect((await post('/api/v1/monitoring/check-runs', {}, viewer.token)).statusCode).toBe(403);
    const first = await post('/api/v1/monitoring/check-runs', {}, admin.token);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ status: 'queued', trigger: 'manual' });
    const second = await post('/api/v1/monitoring/check-runs', {}, analyst.token);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('CHECK_RUN_IN_PROGRESS');
    await app.db.query(`UPDATE check_runs SET status = 'failed' WHERE id = $1`, [first.json().id]);
  });

  it('keeps a daily schedule in Moscow time, set by admins, and fires it from the minute tick', async () => {
    expect((await get('/api/v1/monitoring/check-schedule', viewer.token)).json()).toMatchObject({
      enabled: false,
    });
    const put = (token: string, payload: object) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/monitoring/check-schedule',
        payload,
        headers: bearer(token),
      });
    expect((await put(analyst.token, { enabled: true, time: '07:30' })).statusCode).toBe(403);
    expect((await put(admin.token, { enabled: true, time: '25:00' })).statusCode).toBe(422);
    const saved = (await put(admin.token, { enabled: true, time: '07:30' })).json();
    expect(saved).toMatchObject({ enabled: true, time: '07:30', timezone: 'Europe/Moscow' });
    expect(new Date(saved.nextRunAt).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(saved.nextRunAt).toISOString().slice(11, 16)).toBe('04:30');

    await app.db.query(
      `UPDATE check_schedules SET run_at = '00:00', last_triggered_on = NULL WHERE organisation_id = $1`,
      [analyst.organisationId],
    );
    expect(await startDueScheduledRuns({ db: app.db, config, queue: app.queue })).toBe(1);
    expect(await startDueScheduledRuns({ db: app.db, config, queue: app.queue })).toBe(0);
    const runs = (await get('/api/v1/monitoring/check-runs', analyst.token)).json();
    expect(runs.items[0]).toMatchObject({ trigger: 'scheduled', status: 'queued', createdBy: null });
    await app.db.query(`UPDATE check_runs SET status = 'failed' WHERE id = $1`, [runs.items[0].id]);
  });

  it('shows as the next run the moment the minute tick will fire the schedule', async () => {
    const schedule = async () => (await get('/api/v1/monitoring/check-schedule', admin.token)).json();
    const lastFired = async () =>
      (
        await app.db.query<{ last_triggered_at: Date | null }>(
          'SELECT last_triggered_at FROM check_schedules WHERE organisation_id = $1',
          [admin.organisationId],
        )
      ).rows[0]!.last_triggered_at;
    const today = moscowDate(new Date());
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/monitoring/check-schedule',
      payload: { enabled: true, time: '23:59' },
      headers: bearer(admin.token),
    });
    expect(saved.statusCode).toBe(200);
    // Saved today with a time already past, then moved later today: the tick waits for tomorrow.
    await app.db.query(
      `UPDATE check_schedules SET enabled = true, run_at = '23:59', last_triggered_on = $2, last_triggered_at = NULL
        WHERE organisation_id = $1`,
      [admin.organisationId, today],
    );
    expect((await schedule()).nextRunAt).toBe(moscowInstant(tomorrow, '23:59').toISOString());

    // Due and not yet fired today: the next minute tick takes it, not tomorrow's.
    await app.db.query(
      `UPDATE check_schedules SET run_at = '00:00', last_triggered_on = NULL WHERE organisation_id = $1`,
      [admin.organisationId],
    );
    const due = new Date((await schedule()).nextRunAt).getTime();
    expect(due).toBeGreaterThan(Date.now());
    expect(due).toBeLessThanOrEqual(Date.now() + 60_000);
    await startDueScheduledRuns({ db: app.db, config, queue: app.queue });
    expect(await lastFired()).not.toBeNull();
    expect((await schedule()).nextRunAt).toBe(moscowInstant(tomorrow, '00:00').toISOString());
    const runs = (await get('/api/v1/monitoring/check-runs', admin.token)).json();
    await app.db.query(`UPDATE check_runs SET status = 'failed' WHERE id = $1`, [runs.items[0].id]);
  });
});

describe('one-time checks', () => {
  it('checks a VIN against every vehicle source now and stores who ran it', async () => {
    const response = await post(
      '/api/v1/monitoring/one-time-check',
      { vin: ` ${pledgedVin.toLowerCase()} ` },
      analyst.token,
    );
    expect(response.statusCode).toBe(200);
    const check = response.json();
    expect(check).toMatchObject({
      kind: 'vin',
      identifier: pledgedVin,
      status: 'completed',
      findingsCount: 1,
      createdBy: { id: analyst.id, fullName: 'Тестовый Пользователь' },
    });
    expect(check.number).toMatch(/^ПР-\d{4}-\d{6}$/);
    expect(check.decoded.wmi).toBe('XTA');
    expect(check.sources.map((s: { type: string }) => s.type)).toEqual([
      'pledges',
      'wanted',
      'restrictions',
      'registration',
      'accidents',
    ]);
    const pledges = check.sources[0];
    expect(pledges).toMatchObject({ status: 'ok', adapter: 'dataset', error: null });
    expect(pledges.findings[0].key).toBe(`N-${pledgedVin}`);
    expect(pledges.datasetVersion).toBeGreaterThan(0);

    const again = (await post('/api/v1/monitoring/one-time-check', { vin: cleanVin }, analyst.token)).json();
    const [, seq1] = /-(\d+)$/.exec(check.number)!;
    expect(again.number.endsWith(String(Number(seq1) + 1).padStart(6, '0'))).toBe(true);
    expect(again.findingsCount).toBe(0);
  });

  it('checks a document against the person sources and skips the ones that do not know its type', async () => {
    const check = (
      await post(
        '/api/v1/monitoring/one-time-check',
        { documentType: 'passport_rf', documentNumber: invalidPassport.replace(/^(\d{4})/, '$1 ') },
        analyst.token,
      )
    ).json();
    expect(check).toMatchObject({
      kind: 'document',
      documentType: 'passport_rf',
      identifier: invalidPassport,
      findingsCount: 1,
    });
    expect(check.sources.map((s: { type: string; status: string }) => [s.type, s.status])).toEqual([
      ['bankruptcy', 'ok'],
      ['enforcement', 'ok'],
      ['passport', 'ok'],
    ]);
    const inn = (
      await post(
        '/api/v1/monitoring/one-time-check',
        { documentType: 'pts', documentNumber: '78 УС 123456' },
        analyst.token,
      )
    ).json();
    expect(inn.sources.every((s: { status: string }) => s.status === 'skipped')).toBe(true);
  });

  it('refuses bad input with the identifier rules and viewers', async () => {
    const bad = await post('/api/v1/monitoring/one-time-check', { vin: 'XTA21099O12345678' }, analyst.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors[0]).toMatchObject({ field: 'vin' });
    expect(bad.json().fieldErrors[0].message).toContain('I, O, Q');
    const doc = await post(
      '/api/v1/monitoring/one-time-check',
      { documentType: 'passport_rf', documentNumber: '12' },
      analyst.token,
    );
    expect(doc.json().fieldErrors[0]).toMatchObject({ field: 'documentNumber' });
    const none = await post('/api/v1/monitoring/one-time-check', {}, analyst.token);
    expect(none.json().fieldErrors[0].message).toBe('Укажите VIN или тип и номер документа');
    expect(
      (await post('/api/v1/monitoring/one-time-check', { vin: pledgedVin }, viewer.token)).statusCode,
    ).toBe(403);
  });

  it('lists, searches and isolates past checks', async () => {
    const list = (await get('/api/v1/monitoring/one-time-checks', viewer.token)).json();
    expect(list.total).toBeGreaterThanOrEqual(3);
    const found = (
      await get(`/api/v1/monitoring/one-time-checks?search=${pledgedVin.slice(0, 10)}`, viewer.token)
    ).json();
    expect(found.items.map((c: { identifier: string }) => c.identifier)).toEqual([pledgedVin]);
    const byNumber = (
      await get(
        `/api/v1/monitoring/one-time-checks?search=${encodeURIComponent(found.items[0].number)}`,
        viewer.token,
      )
    ).json();
    expect(byNumber.total).toBe(1);
    expect((await get('/api/v1/monitoring/one-time-checks', other.token)).json().total).toBe(0);
    expect(
      (await get(`/api/v1/monitoring/one-time-checks/${found.items[0].id}`, other.token)).statusCode,
    ).toBe(404);
    expect(
      (await post('/api/v1/monitoring/one-time-check/document-data', { id: found.items[0].id }, other.token))
        .statusCode,
    ).toBe(404);
  });

  it('serves the document data and a PDF with Cyrillic text', async () => {
    const { items } = (
      await get(`/api/v1/monitoring/one-time-checks?search=${pledgedVin}`, viewer.token)
    ).json();
    const id = items[0].id;
    const data = (await post('/api/v1/monitoring/one-time-check/document-data', { id }, viewer.token)).json();
    expect(data).toMatchObject({
      number: items[0].number,
      checkedBy: 'Тестовый Пользователь',
      subject: { kind: 'vin', kindLabel: 'VIN', identifier: pledgedVin },
      status: 'completed',
      pdfUrl: `/api/v1/monitoring/one-time-checks/${id}/pdf`,
    });
    expect(data.organisation).toMatch(/^Организация/);
    expect(data.checkedAtMoscow).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} \(МСК\)$/);
    expect(data.summary).toBe('Найдены сведения: Реестр залогов');
    expect(data.sources[0]).toMatchObject({ name: 'Реестр залогов', answer: 'Найдено записей: 1' });
    expect(data.sources[0].findings[0].lines).toContainEqual({
      label: 'Залогодержатель',
      value: 'ООО «Другой кредитор»',
    });
    expect(data.sources[0].findings[0].lines).toContainEqual({
      label: 'Дата регистрации',
      value: '01.02.2025',
    });
    expect(data.sources[1].answer).toBe('Сведений не найдено');

    const pdf = await get(data.pdfUrl, viewer.token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    for (const expected of [
      pledgedVin,
      'Реестр залогов',
      'Розыск',
      'Ограничения',
      'Регистрационные действия',
      'ДТП',
      data.number,
      'ООО «Другой кредитор»',
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe('cache invalidation', () => {
  it('is for platform staff only: the cache is shared by every organisation', async () => {
    for (const user of [analyst, admin]) {
      expect(
        (await post('/api/v1/monitoring/cache/invalidate', { type: 'wanted' }, user.token)).statusCode,
      ).toBe(403);
    }
    const ok = await post('/api/v1/monitoring/cache/invalidate', { type: 'all' }, staff.token);
    expect(ok.json()).toEqual({ message: 'Кэш всех источников очищен', removed: 0 });
    expect(
      (await post('/api/v1/monitoring/cache/invalidate', { type: 'nope' }, staff.token)).statusCode,
    ).toBe(422);
  });
});
