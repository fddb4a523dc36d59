import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { findItems, type ItemSort } from './monitoring.queries.ts';

const { app } = await buildTestApp();

let serial = 100000;
/** A VIN with a correct check digit: WMI + 5 + check + year + plant + serial. */
export function makeVin(wmi = 'XTA', vds = '21074', year = 'P', plant = 'Y'): string {
  const body = `${wmi}${vds}0${year}${plant}${String(++serial).padStart(6, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

const post = (url: string, payload: object, user: TestUser) =>
  app.inject({ method: 'POST', url, payload, headers: bearer(user.token) });
const get = (url: string, user: TestUser) => app.inject({ method: 'GET', url, headers: bearer(user.token) });
const addVins = (user: TestUser, rows: object[]) =>
  post('/api/v1/monitoring/regular-check/form-vin', { rows }, user);
const addDocs = (user: TestUser, rows: object[]) =>
  post('/api/v1/monitoring/regular-check/form-doc', { rows }, user);

describe('POST /api/v1/monitoring/regular-check/form-vin', () => {
  it('adds valid rows, normalises, reports check-digit warnings, bad rows and repeats', async () => {
    const user = await createSignedInUser(app);
    const good = makeVin();
    const noCheck = `${good.slice(0, 8)}${good[8] === '1' ? '2' : '1'}${good.slice(9)}`;
    const response = await addVins(user, [
      {
        vin: ` ${good.toLowerCase()} `,
        label: 'LADA 2107',
        contractNumber: 'КД-1',
        pledgorName: 'Иванов И. И.',
      },
      { vin: noCheck },
      { vin: 'XTA21074' },
      { vin: 'XTA2107OY1234567' },
      { vin: good },
      { vin: makeVin(), label: 'x'.repeat(201) },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.counts).toEqual({ rows: 6, added: 2, restored: 0, duplicates: 1, rejected: 3 });
    expect(body.added[0].item).toMatchObject({
      kind: 'vin',
      identifier: good,
      displayIdentifier: good,
      label: 'LADA 2107',
      contractNumber: 'КД-1',
      pledgorName: 'Иванов И. И.',
      status: 'active',
      origin: 'form',
      documentType: null,
    });
    expect(body.added[0].item.vin).toMatchObject({
      wmi: 'XTA',
      manufacturer: 'LADA (АвтоВАЗ)',
      checkDigitValid: true,
    });
    expect(body.warnings).toEqual([
      { rowNumber: 2, field: 'vin', message: expect.stringContaining('контрольная цифра не совпадает') },
    ]);
    expect(body.rejected).toEqual([
      { rowNumber: 3, field: 'vin', message: 'VIN: должно быть 17 символов, указано 8' },
      { rowNumber: 4, field: 'vin', message: expect.stringContaining('VIN: недопустимые символы I, O, Q') },
      { rowNumber: 6, field: 'label', message: 'Метка: максимальная длина — 200 симв., указано 201' },
    ]);
    expect(body.duplicates).toEqual([
      expect.objectContaining({
        rowNumber: 5,
        reason: 'in_request',
        firstRowNumber: 1,
        message: 'Повтор строки 1',
      }),
    ]);
  });

  it('reports items already monitored instead of doubling them, and restores archived ones', async () => {
    const user = await createSignedInUser(app);
    const vin = makeVin('Z94');
    const first = (await addVins(user, [{ vin }])).json();
    const id = first.added[0].item.id;
    const again = (await addVins(user, [{ vin }])).json();
    expect(again.counts.duplicates).toBe(1);
    expect(again.duplicates[0]).toMatchObject({
      reason: 'existing',
      itemId: id,
      message: 'Уже на мониторинге',
    });

    await app.inject({
      method: 'PATCH',
      url: `/api/v1/monitoring/items/${id}`,
      headers: bearer(user.token),
      payload: { status: 'archived' },
    });
    const restored = (await addVins(user, [{ vin, label: 'Снова в залоге' }])).json();
    expect(restored.counts).toMatchObject({ added: 0, restored: 1 });
    expect(restored.restored[0].item).toMatchObject({
      id,
      status: 'active',
      archivedAt: null,
      label: 'Снова в залоге',
    });
    const count = await app.db.query(
      'SELECT count(*)::int AS n FROM monitoring_items WHERE identifier = $1',
      [vin],
    );
    expect(count.rows[0].n).toBe(1);
  });

  it('refuses an empty body and more than 1000 rows with a Russian message', async () => {
    const user = await createSignedInUser(app);
    const empty = await addVins(user, []);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().fieldErrors[0]).toEqual({ field: 'rows', message: 'Добавьте хотя бы одну строку' });
    const many = await addVins(
      user,
      Array.from({ length: 1001 }, () => ({ vin: 'X' })),
    );
    expect(many.json().fieldErrors[0].message).toBe('Не более 1000 строк за один раз');
  });

  it('saves 1000 pasted rows in one call', async () => {
    const user = await createSignedInUser(app);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ vin: makeVin('XW8'), label: `Авто ${i}` }));
    const body = (await addVins(user, rows)).json();
    expect(body.counts.added).toBe(1000);
  });
});

describe('POST /api/v1/monitoring/regular-check/form-doc', () => {
  it('validates each document by its type, detects the type when empty and formats the display form', async () => {
    const user = await createSignedInUser(app);
    const response = await addDocs(user, [
      { documentType: 'passport_rf', number: '45 06 123456', pledgorName: 'Петров П. П.' },
      { documentType: 'ИНН', number: '7707083893' },
      { number: '1027700132195' },
      { documentType: 'pts', number: '78 ус 123456' },
      { documentType: 'inn', number: '7707083894' },
      { documentType: 'паспорт', number: '45 06 12345' },
      { documentType: 'водительские права', number: '1234567890' },
      { documentType: 'passport_rf', number: '' },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.counts).toMatchObject({ rows: 8, added: 4, rejected: 4 });
    expect(
      body.added.map((a: { item: { documentType: string; displayIdentifier: string } }) => a.item),
    ).toEqual([
      expect.objectContaining({
        documentType: 'passport_rf',
        identifier: '4506123456',
        displayIdentifier: '45 06 123456',
        documentTypeLabel: 'Паспорт РФ',
      }),
      expect.objectContaining({ documentType: 'inn', identifier: '7707083893' }),
      expect.objectContaining({ documentType: 'ogrn', identifier: '1027700132195' }),
      expect.objectContaining({
        documentType: 'pts',
        identifier: '78УС123456',
        displayIdentifier: '78 УС 123456',
      }),
    ]);
    expect(body.rejected).toEqual([
      { rowNumber: 5, field: 'number', message: 'ИНН: неверная контрольная сумма' },
      {
        rowNumber: 6,
        field: 'number',
        message: 'Паспорт РФ: серия — 4 цифры, номер — 6 цифр (указано 9 цифр)',
      },
      {
        rowNumber: 7,
        field: 'documentType',
        message: expect.stringContaining('Тип документа: «водительские права» не распознан'),
      },
      { rowNumber: 8, field: 'number', message: 'Номер документа: обязательное поле' },
    ]);
  });
});

describe('GET /api/v1/monitoring/items', () => {
  it('pages, sorts, searches and filters by status within the organisation', async () => {
    const user = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const vins = Array.from({ length: 30 }, () => makeVin('TMB'));
    await addVins(
      user,
      vins.map((vin, i) => ({
        vin,
        label: i === 7 ? 'Škoda Octavia Ёлка' : `Škoda ${i}`,
        contractNumber: `КД-${100 + i}`,
      })),
    );
    await addVins(other, [{ vin: makeVin('TMB'), label: 'Чужая Škoda' }]);
    await addDocs(user, [{ documentType: 'inn', number: '7707083893', label: 'Документ' }]);

    const page1 = (
      await get('/api/v1/monitoring/items?entity=vin&page=1&pageSize=10&sort=identifier&order=asc', user)
    ).json();
    expect(page1.total).toBe(30);
    expect(page1.items.map((i: { identifier: string }) => i.identifier)).toEqual(
      [...vins].sort().slice(0, 10),
    );
    const page3 = (
      await get('/api/v1/monitoring/items?entity=vin&page=3&pageSize=10&sort=identifier&order=desc', user)
    ).json();
    expect(page3.items.at(-1).identifier).toBe([...vins].sort()[0]);

    const byContract = (
      await get('/api/v1/monitoring/items?entity=vin&sort=contractNumber&order=desc&pageSize=1', user)
    ).json();
    expect(byContract.items[0].contractNumber).toBe('КД-129');

    const search = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('ЁЛКА')}`, user)
    ).json();
    expect(search.items.map((i: { label: string }) => i.label)).toEqual(['Škoda Octavia Ёлка']);
    const byVin = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${vins[3]!.slice(-9).toLowerCase()}`, user)
    ).json();
    expect(byVin.items.map((i: { identifier: string }) => i.identifier)).toEqual([vins[3]]);
    const byContractSearch = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('кд-12')}`, user)
    ).json();
    expect(byContractSearch.total).toBe(10);
    expect(byContractSearch.totalIsEstimate).toBe(false);
    const docs = (await get('/api/v1/monitoring/items?entity=document&search=7707%20083', user)).json();
    expect(docs.items.map((i: { identifier: string }) => i.identifier)).toEqual(['7707083893']);
    const percent = (await get('/api/v1/monitoring/items?entity=vin&search=%25', user)).json();
    expect(percent.total).toBe(0);

    const ids = page1.items.slice(0, 3).map((i: { id: string }) => i.id);
    const bulk = await post('/api/v1/monitoring/items/bulk-status', { ids, status: 'archived' }, user);
    expect(bulk.json()).toEqual({ updated: 3, notFound: [] });
    expect((await get('/api/v1/monitoring/items?entity=vin', user)).json().total).toBe(27);
    expect((await get('/api/v1/monitoring/items?entity=vin&status=archived', user)).json().total).toBe(3);
    expect((await get('/api/v1/monitoring/items?entity=vin&status=all', user)).json().total).toBe(30);

    const bad = await get('/api/v1/monitoring/items?entity=car&sort=color', user);
    expect(bad.statusCode).toBe(422);
  });

  it('a search pages like the straightforward query in every sort; beyond the threshold the total is a flagged estimate', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 40 }, (_, i) => makeVin(i % 3 === 0 ? 'XW8' : 'KNA'));
    await addVins(
      user,
      vins.map((vin, i) => ({
        vin,
        label: i % 2 ? `Kia Rio ${i}` : i % 5 === 0 ? null : `Lada ${i % 7}`,
        contractNumber: i % 4 ? `КД-${i % 9}` : null,
      })),
    );
    await app.db.query(
      `UPDATE monitoring_items SET last_checked_at = now() - make_interval(mins => right(identifier, 2)::int % 6)
        WHERE organisation_id = $1 AND right(identifier, 1) < '7'`,
      [user.organisationId],
    );
    await app.db.query(
      `UPDATE monitoring_items SET status = 'archived', archived_at = now()
        WHERE organisation_id = $1 AND right(identifier, 1) = '3'`,
      [user.organisationId],
    );
    const keys: Record<ItemSort, string> = {
      createdAt: 'm.created_at',
      identifier: 'm.identifier',
      label: 'm.label',
      contractNumber: 'm.contract_number COLLATE "C"',
      lastCheckedAt: 'item_last_checked_at(m.id)',
    };
    for (const search of ['kia', 'a', 'кд-1', 'xw8']) {
      const pattern = `%${search}%`;
      const { rows: all } = await app.db.query<{ id: string }>(
        `SELECT id FROM monitoring_items WHERE organisation_id = $1 AND kind = 'vin' AND status <> 'archived'
            AND lower(identifier || ' ' || coalesce(label, '') || ' ' || coalesce(contract_number, '')) LIKE $2`,
        [user.organisationId, pattern],
      );
      for (const sort of Object.keys(keys) as ItemSort[]) {
        for (const order of ['asc', 'desc'] as const) {
          const direction = order.toUpperCase();
          // The straightforward query: every match sorted.
          const { rows: expected } = await app.db.query<{ id: string }>(
            `SELECT m.id FROM monitoring_items m JOIN monitoring_item_checks c ON c.item_id = m.id
              WHERE m.organisation_id = $1 AND m.kind = 'vin' AND m.status <> 'archived'
                AND lower(m.identifier || ' ' || coalesce(m.label, '') || ' ' || coalesce(m.contract_number, '')) LIKE $2
              ORDER BY ${keys[sort]} ${direction}, m.id ${direction}`,
            [user.organisationId, pattern],
          );
          // Exact path; frequent-term path with a walk that finds the page or runs out (then sorts).
          for (const tuning of [
            {},
            { exactTotalMax: 1, walkRows: 1000 },
            { exactTotalMax: 1, walkRows: 4 },
          ]) {
            for (let offset = 0; offset <= expected.length + 6; offset += 6) {
              const page = await findItems(app.db, {
                organisationId: user.organisationId,
                kind: 'vin',
                statuses: ['active', 'paused'],
                search,
                sort,
                order,
                limit: 6,
                offset,
                ...tuning,
              });
              const what = `${search} ${sort} ${order} ${offset} ${JSON.stringify(tuning)}`;
              expect(
                page.items.map((item) => item.id),
                what,
              ).toEqual(expected.slice(offset, offset + 6).map((row) => row.id));
              if (!page.totalIsEstimate) {
                expect(page.total, what).toBe(all.length);
              } else {
                // Only the frequent-term path estimates, and never below the rows it has seen.
                expect(tuning, what).toHaveProperty('exactTotalMax', 1);
                expect(page.total, what).toBeGreaterThan(offset + page.items.length);
              }
              if (page.items.length > 0 && page.items.length < 6) {
                expect(page, `${what}: the last page knows the total`).toMatchObject({
                  total: all.length,
                  totalIsEstimate: false,
                });
              }
            }
          }
        }
      }
    }
  });

  it('sorts by last check time with never-checked items last in ascending order', async () => {
    const user = await createSignedInUser(app);
    const [a, b] = [makeVin(), makeVin()];
    await addVins(user, [{ vin: a }, { vin: b }]);
    await app.db.query(`UPDATE monitoring_items SET last_checked_at = now() WHERE identifier = $1`, [b]);
    const asc = (await get('/api/v1/monitoring/items?entity=vin&sort=lastCheckedAt&order=asc', user)).json();
    expect(asc.items.map((i: { identifier: string }) => i.identifier)).toEqual([b, a]);
    expect(asc.items[0].lastCheckedAt).not.toBeNull();
  });
});

describe('item actions', () => {
  it('views, edits, pauses and archives an item; other organisations get 404; viewers read only', async () => {
    const user = await createSignedInUser(app);
    const viewer = await createSignedInUser(app, { role: 'viewer', organisationId: user.organisationId });
    const stranger = await createSignedInUser(app);
    const id = (await addVins(user, [{ vin: makeVin('KNA'), label: 'Kia Rio' }])).json().added[0].item.id;

    const view = await get(`/api/v1/monitoring/items/${id}`, viewer);
    expect(view.statusCode).toBe(200);
    expect(view.json().vin.manufacturer).toBe('Kia');

    const patch = (payload: object, who: TestUser) =>
      app.inject({
        method: 'PATCH',
        url: `/api/v1/monitoring/items/${id}`,
        headers: bearer(who.token),
        payload,
      });
    const edited = await patch({ label: ' Kia Rio X ', contractNumber: 'КД-77', status: 'paused' }, user);
    expect(edited.json()).toMatchObject({ label: 'Kia Rio X', contractNumber: 'КД-77', status: 'paused' });
    const cleared = await patch({ label: '', status: 'archived' }, user);
    expect(cleared.json()).toMatchObject({ label: null, contractNumber: 'КД-77', status: 'archived' });
    expect(cleared.json().archivedAt).not.toBeNull();
    const tooLong = await patch({ pledgorName: 'я'.repeat(301) }, user);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().fieldErrors[0]).toEqual({
      field: 'pledgorName',
      message: 'Максимальная длина — 300 симв.',
    });

    expect((await patch({ label: 'нельзя' }, viewer)).statusCode).toBe(403);
    expect((await addVins(viewer, [{ vin: makeVin() }])).statusCode).toBe(403);
    expect(
      (await post('/api/v1/monitoring/items/bulk-status', { ids: [id], status: 'active' }, viewer))
        .statusCode,
    ).toBe(403);

    expect((await get(`/api/v1/monitoring/items/${id}`, stranger)).statusCode).toBe(404);
    expect((await patch({ label: 'чужое' }, stranger)).statusCode).toBe(404);
    const foreignBulk = await post(
      '/api/v1/monitoring/items/bulk-status',
      { ids: [id], status: 'active' },
      stranger,
    );
    expect(foreignBulk.json()).toEqual({ updated: 0, notFound: [id] });
    expect((await get(`/api/v1/monitoring/items?entity=vin&status=all`, stranger)).json().total).toBe(0);
    expect((await get(`/api/v1/monitoring/items/${id}`, user)).json().label).toBeNull();
  });

  it('requires a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/monitoring/items?entity=vin' });
    expect(response.statusCode).toBe(401);
  });
});
