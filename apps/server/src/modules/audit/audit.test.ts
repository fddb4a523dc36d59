import {
  type AuditFacets,
  type AuditResponse,
  auditEndpoints,
  endpointPath,
  memberEndpoints,
} from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { recordAudit } from './audit.queries.ts';

const { app } = await buildTestApp();

let adminA: TestUser;
let analystA: TestUser;
let adminB: TestUser;

const get = (url: string, user: TestUser) => app.inject({ method: 'GET', url, headers: bearer(user.token) });

beforeAll(async () => {
  adminA = await createSignedInUser(app, { role: 'admin' });
  analystA = await createSignedInUser(app, { organisationId: adminA.organisationId });
  adminB = await createSignedInUser(app, { role: 'admin' });
  // A real action of each organisation's admin, through the API.
  const promote = await app.inject({
    method: 'PATCH',
    url: endpointPath(memberEndpoints.update.path, { id: analystA.id }),
    headers: bearer(adminA.token),
    payload: { role: 'viewer' },
  });
  expect(promote.statusCode).toBe(200);
  const colleagueB = await createSignedInUser(app, { organisationId: adminB.organisationId });
  await app.inject({
    method: 'PATCH',
    url: endpointPath(memberEndpoints.update.path, { id: colleagueB.id }),
    headers: bearer(adminB.token),
    payload: { active: false },
  });
  // An older entry, to filter by period (1 March 2026, Moscow time).
  await recordAudit(app.db, {
    organisationId: adminA.organisationId,
    userId: adminA.id,
    action: 'news.created',
    entity: 'news',
    entityId: 'old-news',
    details: { title: 'Старая новость' },
  });
  await app.db.query(`UPDATE audit_log SET created_at = '2026-03-01 10:00+03' WHERE entity_id = 'old-news'`);
});

describe('audit log', () => {
  it('shows an admin what changed, by whom, in their own organisation only', async () => {
    const response = await get(`${auditEndpoints.list.path}?action=user.updated`, adminA);
    expect(response.statusCode).toBe(200);
    const body = response.json<AuditResponse>();
    expect(body.total).toBe(1);
    const [entry] = body.items;
    expect(entry?.actor).toEqual({ id: adminA.id, fullName: 'Тестовый Пользователь', email: adminA.email });
    expect(entry?.entityId).toBe(analystA.id);
    expect(entry?.details).toMatchObject({ changes: { role: { from: 'analyst', to: 'viewer' } } });

    const all = (await get(auditEndpoints.list.path, adminA)).json<AuditResponse>();
    expect(all.items.every((item) => item.actor === null || item.actor.id === adminA.id)).toBe(true);
    expect(JSON.stringify(all)).not.toContain(adminB.organisationId);
    const ofB = (await get(auditEndpoints.list.path, adminB)).json<AuditResponse>();
    expect(ofB.items.map((item) => item.details)).toEqual([
      expect.objectContaining({ changes: { active: { from: true, to: false } } }),
    ]);
  });

  it('refuses people who are not administrators', async () => {
    const viewer = await get(auditEndpoints.list.path, analystA);
    expect(viewer.statusCode).toBe(403);
    expect((await get(auditEndpoints.export.path, analystA)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: auditEndpoints.list.path })).statusCode).toBe(401);
  });

  it('filters by person, object and Moscow period, and checks the period', async () => {
    const march = (
      await get(`${auditEndpoints.list.path}?from=2026-03-01&to=2026-03-01`, adminA)
    ).json<AuditResponse>();
    expect(march.items.map((item) => item.entityId)).toEqual(['old-news']);
    const afterMarch = (
      await get(`${auditEndpoints.list.path}?from=2026-03-02`, adminA)
    ).json<AuditResponse>();
    expect(afterMarch.items.map((item) => item.action)).toEqual(['user.updated']);
    const byEntity = (
      await get(`${auditEndpoints.list.path}?entity=news&actorId=${adminA.id}`, adminA)
    ).json<AuditResponse>();
    expect(byEntity.total).toBe(1);
    const byOther = (
      await get(`${auditEndpoints.list.path}?actorId=${analystA.id}`, adminA)
    ).json<AuditResponse>();
    expect(byOther.total).toBe(0);

    const reversed = await get(`${auditEndpoints.list.path}?from=2026-03-02&to=2026-03-01`, adminA);
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().fieldErrors).toEqual([{ field: 'to', message: 'Конец периода раньше начала' }]);
  });

  it('offers the filters present in the log', async () => {
    const facets = (await get(auditEndpoints.facets.path, adminA)).json<AuditFacets>();
    expect(facets.actions).toEqual(['news.created', 'user.updated']);
    expect(facets.entities).toEqual(['news', 'user']);
    expect(facets.actors.map((actor) => actor.id)).toEqual([adminA.id]);
  });

  it('exports the filtered log as CSV and XLSX in Russian', async () => {
    const csv = await get(`${auditEndpoints.export.path}?format=csv&action=user.updated`, adminA);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Изменение сотрудника');
    expect(lines[1]).toContain('Роль: Аналитик → Наблюдатель');

    const xlsx = await get(`${auditEndpoints.export.path}?format=xlsx`, adminA);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(4).value).toBe('Действие');
    // Date and time as a real Excel date (Moscow wall clock), header frozen and filterable.
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm:ss');
    expect(sheet.autoFilter).toBe('A1:G1');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(String(sheet.getRow(3).getCell(7).value)).toContain('Старая новость');
  });
});
