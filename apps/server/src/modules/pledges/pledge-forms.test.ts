import { PLEDGE_EVENT_FORMS } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/job-definition.ts';
import type { TestUser } from '../../testing/test-app.ts';
import { buildTestApp, createSignedInUser } from '../../testing/test-app.ts';
import { multipartFile } from '../checks/testing/checks-test-helpers.ts';
import { importUploadJob } from '../uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../uploads/jobs/validate-upload.job.ts';
import { makeVin, requester, uniqueSerial } from './testing/pledge-test-helpers.ts';

const { app, config } = await buildTestApp();
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;
const { send, upload } = requester(app);
const run = (job: typeof validateUploadJob | typeof importUploadJob, uploadId: string) =>
  job.handler({ id: 'test', data: { uploadId }, retryCount: 0, retryLimit: 3 }, context);

async function uploadPledgeEvents(user: TestUser, fileName: string, content: string) {
  const response = await upload(
    '/api/v1/monitoring/regular-check/upload-events',
    user,
    multipartFile(fileName, content),
  );
  expect(response.statusCode, response.body).toBe(202);
  await run(validateUploadJob, response.json().id);
  return (await send('GET', `/api/v1/monitoring/uploads/${response.json().id}`, user)).json();
}

async function importPledgeEvents(user: TestUser, id: string) {
  expect((await send('POST', `/api/v1/monitoring/uploads/${id}/confirm`, user)).statusCode).toBe(200);
  await run(importUploadJob, id);
}

const HEADER = [
  'Вид уведомления',
  'Дата уведомления',
  'Залогодатель: тип',
  'Залогодатель: фамилия',
  'Залогодатель: имя',
  'Залогодатель: дата рождения',
  'Залогодатель: серия и номер документа',
  'Залогодержатель: наименование',
  'Залогодержатель: ИНН',
  'Залогодержатель: ОГРН',
  'Договор: номер',
  'Договор: дата',
  'VIN',
  'Описание ТС',
].join(';');
const row = (kind: string, date: string, contract: string, vin: string) =>
  [kind, date, 'ФЛ', 'Петров', 'Пётр', '05.06.1985', '4510 654321', 'ПАО Сбербанк', '7707083893']
    .concat(['1027700132195', contract, '01.03.2025', vin, 'Kia Rio'])
    .join(';');

describe('the official form codes', () => {
  it('names the forms УЗ1, УИ1 and УП1', async () => {
    expect(PLEDGE_EVENT_FORMS).toEqual({ creation: 'УЗ1', change: 'УИ1', exclusion: 'УП1' });
    const admin = await createSignedInUser(app, { role: 'admin' });
    const vin = makeVin();
    const contract = `КД-Ф-${uniqueSerial()}`;
    const file = [
      HEADER,
      row('УЗ1', '01.03.2025', contract, vin),
      row('Изменение (УИ1)', '01.04.2025', contract, vin),
      row('уп-1', '01.05.2025', contract, vin),
    ].join('\n');
    const validated = await uploadPledgeEvents(admin, 'формы.csv', file);
    expect(validated.counts, JSON.stringify(validated.errors)).toMatchObject({ accepted: 3, rejected: 0 });
    await importPledgeEvents(admin, validated.id);
    const events = (await send('GET', '/api/v1/pledges/events?pageSize=10', admin)).json();
    expect(events.items.map((e: { kind: string; form: string }) => `${e.kind} ${e.form}`).sort()).toEqual([
      'change УИ1',
      'creation УЗ1',
      'exclusion УП1',
    ]);

    const xlsx = await send(
      'GET',
      `/api/v1/pledges/packages/${events.items[0].package.id}/export?format=json`,
      admin,
    );
    expect(xlsx.json().notifications.map((n: { form: string }) => n.form)).toEqual(['УЗ1', 'УИ1', 'УП1']);
  });

  it('refuses a row of a bond-pledge form (УЗ2, УИ2, УП2) or of «УЗ3», saying what it is, never reading it as a change or an exclusion', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const vin = makeVin();
    const contract = `КД-Ф-${uniqueSerial()}`;
    const file = [
      HEADER,
      row('Возникновение', '01.03.2025', contract, vin),
      row('УЗ2', '01.04.2025', contract, vin),
      row('уз 3', '01.04.2025', contract, vin),
      row('УИ2', '01.04.2025', contract, vin),
      row('УП-2', '01.05.2025', contract, vin),
    ].join('\n');
    const validated = await uploadPledgeEvents(admin, 'облигации.csv', file);
    expect(validated.counts).toMatchObject({ rows: 5, accepted: 1, rejected: 4 });
    const errors = validated.errors as { rowNumber: number; field: string; message: string }[];
    expect(errors.map((e) => [e.rowNumber, e.field])).toEqual([
      [3, 'kind'],
      [4, 'kind'],
      [5, 'kind'],
      [6, 'kind'],
    ]);
    expect(errors[0]!.message).toContain(
      'УЗ2 — уведомление о возникновении залога в обеспечение исполнения обязательств по облигациям',
    );
    expect(errors[1]!.message).toContain('УЗ3 — такой формы нет');
    expect(errors[2]!.message).toContain('УИ2 — уведомление об изменении залога');
    expect(errors[3]!.message).toContain('УП2 — уведомление об исключении сведений о залоге');
    for (const error of errors) {
      expect(error.message).toContain('не поддерживаются');
      expect(error.message).toContain('изменение — УИ1, исключение — УП1');
    }
    await importPledgeEvents(admin, validated.id);
    const events = (await send('GET', '/api/v1/pledges/events', admin)).json();
    expect(events.items.map((e: { kind: string }) => e.kind)).toEqual(['creation']);
    expect(events.items[0].pledge.status).toBe('active');
  });
});
