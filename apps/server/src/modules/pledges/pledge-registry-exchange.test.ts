import type { PledgeEvent } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { multipartFile } from '../checks/testing/checks-test-helpers.ts';
import { readNotificationXml } from './registry-xml/notification-xml.ts';
import { readZip, writeZip } from './registry-xml/zip.ts';
import { creationBody, makeVin, person, requester, uniqueSerial } from './testing/pledge-test-helpers.ts';

const { app } = await buildTestApp();
const { send, upload } = requester(app);

const regNumber = () => {
  const n = uniqueSerial();
  return `2025-001-${String(n).padStart(6, '0').slice(-6)}-${String(n % 1000).padStart(3, '0')}`;
};

async function team() {
  const analyst = await createSignedInUser(app, { role: 'analyst' });
  const admin = await createSignedInUser(app, { role: 'admin', organisationId: analyst.organisationId });
  return { analyst, admin };
}

async function enter(user: TestUser, body: unknown): Promise<PledgeEvent> {
  const response = await send('POST', '/api/v1/pledges/events', user, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().event;
}

/** A package of the events made by the maker and approved by the checker. */
async function approvedPackage(maker: TestUser, checker: TestUser, eventIds: string[]) {
  const created = await send('POST', '/api/v1/pledges/packages', maker, { eventIds });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const approved = await send('POST', `/api/v1/pledges/packages/${id}/transition`, checker, {
    action: 'approve',
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

async function exportXml(user: TestUser, packageId: string) {
  return app.inject({
    method: 'GET',
    url: `/api/v1/pledges/packages/${packageId}/export?format=xml`,
    headers: { authorization: `Bearer ${user.token}` },
  });
}

const certificate = (notificationId: string, number: string, ns = 'http://fciit.ru/eisn/ruzdi/types/2.3') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<ns2:RegistrationCertificate xmlns:ns2="${ns}" version="2.3">
  <ns2:RegistrationCertificateId>${crypto.randomUUID()}</ns2:RegistrationCertificateId>
  <ns2:NotificationId>${notificationId}</ns2:NotificationId>
  <ns2:RegistrationCertificateData>
    <ns2:NotificationReferenceNumber>${number}</ns2:NotificationReferenceNumber>
    <ns2:RegistrationTime>2025-11-24T11:04:56</ns2:RegistrationTime>
  </ns2:RegistrationCertificateData>
</ns2:RegistrationCertificate>
`;
const rejection = (notificationId: string, reason: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<RegistrationRejectMessage xmlns="urn:some-other-namespace" version="2.3">
  <RegistrationRejectId>${crypto.randomUUID()}</RegistrationRejectId>
  <NotificationId>${notificationId}</NotificationId>
  <RejectReason>${reason}</RejectReason>
</RegistrationRejectMessage>
`;

const postResults = (user: TestUser, packageId: string, fileName: string, content: Buffer | string) =>
  upload(`/api/v1/pledges/packages/${packageId}/registry-results`, user, multipartFile(fileName, content));

// biome-ignore lint/suspicious/noExplicitAny: the parsed document is walked freely; its shape is what the assertions check
type Tree = any;

/** The notification's fields as the XML carries them, named as the event names them. */
function fieldsOfXml(xml: string) {
  const { form, value } = readNotificationXml(xml);
  const data = (value.NotificationData as Record<string, Record<string, Tree>>)[form]!;
  const party = (p: Tree) =>
    p?.PrivatePerson
      ? {
          lastName: p.PrivatePerson.Name.Last,
          firstName: p.PrivatePerson.Name.First,
          middleName: p.PrivatePerson.Name.Middle ?? null,
          birthDate: p.PrivatePerson.BirthDate,
          document: p.PrivatePerson.PersonDocument.SeriesNumber,
        }
      : {
          name: p.Organization.RussianOrganization.NameFull,
          inn: p.Organization.RussianOrganization.INN,
          ogrn: p.Organization.RussianOrganization.OGRN,
        };
  return {
    notificationId: value.NotificationId,
    form,
    reference: data.CreationReferenceNumber ?? null,
    vehicles:
      data.PersonalProperties?.PersonalProperty.map((p: Tree) => ({
        vin: p.VehicleProperty.VIN ?? null,
        bodyNumber: p.VehicleProperty.BodyNumber ?? null,
        chassisNumber: p.VehicleProperty.ChassisNumber ?? null,
        description: p.VehicleProperty.Description ?? null,
      })) ?? null,
    pledgor: data.Pledgors ? party(data.Pledgors.Pledgor[0]) : null,
    pledgee: data.Pledgee ? party(data.Pledgee.Pledgee[0]) : null,
    contract: data.PledgeContract
      ? {
          name: data.PledgeContract.Name ?? null,
          number: data.PledgeContract.Number,
          date: data.PledgeContract.Date,
          endDate: data.PledgeContract.TermOfContract ?? null,
        }
      : null,
    applicant: data.NotificationApplicant,
  };
}

/** The same fields as the event holds them. */
function fieldsOfEvent(event: PledgeEvent) {
  const party = (p: PledgeEvent['pledgor']) =>
    p.type === 'company'
      ? { name: p.name, inn: p.inn, ogrn: p.ogrn }
      : {
          lastName: p.lastName,
          firstName: p.firstName,
          middleName: p.middleName ?? null,
          birthDate: p.birthDate,
          document: p.documentNumber?.replace(/\s+/g, ''),
        };
  const full = event.kind !== 'exclusion';
  return {
    notificationId: event.notificationId,
    form: { creation: 'FormUZ1', change: 'FormUI1', exclusion: 'FormUP1' }[event.kind],
    reference:
      event.kind === 'creation' ? null : (event.registrationNumber ?? event.pledge.registrationNumber),
    vehicles: full ? event.vehicles : null,
    pledgor: full ? party(event.pledgor) : null,
    pledgee: full ? party(event.pledgee) : null,
    contract: full ? event.contract : null,
    applicant: {
      Role: '2',
      Organization: { NameFull: event.pledgee.name, URN: event.pledgee.ogrn, UINN: event.pledgee.inn },
    },
  };
}

async function unzip(body: Buffer) {
  return readZip(body, (name) => name.endsWith('.xml'));
}

describe('the registry exchange: XML out', () => {
  it('exports a package of each form as a ZIP of <NotificationId>.xml; each parsed back equals its notification, and the ids stay on re-export', async () => {
    const { analyst, admin } = await team();
    const created = await enter(analyst, creationBody([makeVin(), makeVin()]));
    const known = regNumber();
    const base = await enter(analyst, creationBody([makeVin()], { registrationNumber: known }));
    const change = await enter(analyst, {
      ...creationBody([base.vehicles[0]!.vin!], { registrationNumber: known }),
      kind: 'change',
      notificationDate: '2025-03-01',
      contract: { ...base.contract, endDate: '2031-01-15' },
    });
    const other = regNumber();
    const excluded = await enter(analyst, creationBody([makeVin()], { registrationNumber: other }));
    const exclusion = await enter(admin, {
      ...creationBody([excluded.vehicles[0]!.vin!], { registrationNumber: other }),
      kind: 'exclusion',
      notificationDate: '2025-04-01',
      contract: excluded.contract,
    });
    const draft = await send('POST', '/api/v1/pledges/packages', analyst, {
      eventIds: [created.id, change.id, exclusion.id],
    });
    // Only an approved package leaves for the registry.
    expect((await exportXml(admin, draft.json().id)).statusCode).toBe(409);
    // The admin entered the exclusion, so a third person approves.
    const checker = await createSignedInUser(app, { role: 'analyst', organisationId: admin.organisationId });
    const approved = await send('POST', `/api/v1/pledges/packages/${draft.json().id}/transition`, checker, {
      action: 'approve',
    });
    expect(approved.statusCode, approved.body).toBe(200);

    const exported = await exportXml(admin, draft.json().id);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toBe('application/zip');
    const entries = await unzip(exported.rawPayload);
    const events = (await send('GET', `/api/v1/pledges/events?packageId=${draft.json().id}`, admin)).json()
      .items as PledgeEvent[];
    expect(entries.map((e) => e.name).sort()).toEqual(events.map((e) => `${e.notificationId}.xml`).sort());
    for (const event of events) {
      const xml = entries.find((e) => e.name === `${event.notificationId}.xml`)!.data.toString('utf8');
      expect(xml).toContain('xmlns="http://fciit.ru/eisn/ruzdi/types/2.3"');
      expect(readNotificationXml(xml).version).toBe('2.3');
      expect(fieldsOfXml(xml)).toEqual(fieldsOfEvent(event));
    }
    expect(events.map((e) => e.form).sort()).toEqual(['УЗ1', 'УИ1', 'УП1']);
    const again = await unzip((await exportXml(admin, draft.json().id)).rawPayload);
    expect(again.map((e) => e.name).sort()).toEqual(entries.map((e) => e.name).sort());
  });

  it('refuses a package whose notification breaks the format, naming the notification and field', async () => {
    const { analyst, admin } = await team();
    const good = await enter(analyst, creationBody([makeVin()]));
    const bad = await enter(analyst, {
      ...creationBody([makeVin()]),
      vehicles: [{ vin: makeVin(), description: '' }],
      pledgor: { ...person(), documentType: 'driving_licence', documentNumber: '77 АВ 123456' },
    });
    const packageId = await approvedPackage(analyst, admin, [good.id, bad.id]);
    const refused = await exportXml(admin, packageId);
    expect(refused.statusCode).toBe(422);
    const body = refused.json();
    expect(body.message).toBe(
      'Пакет не выгружен: уведомлений с ошибками — 1 из 2. Исправьте их и выгрузите снова',
    );
    const messages = body.fieldErrors.map((e: { message: string }) => e.message);
    expect(messages).toEqual([
      `Возникновение (УЗ1) от 15.01.2025, договор № ${bad.contract.number}: залогодатель → документ — для вида документа «Водительское удостоверение» код формата реестра не известен: укажите паспорт гражданина РФ`,
      `Возникновение (УЗ1) от 15.01.2025, договор № ${bad.contract.number}: имущество → имущество → транспортное средство → описание — обязательное поле`,
    ]);
    expect(body.fieldErrors.every((e: { field: string }) => e.field.startsWith(`${bad.id}:`))).toBe(true);
  });
});

describe('the registry exchange: results back in', () => {
  /** A sent package of two creations, and its exported notification ids. */
  async function sentPackage() {
    const { analyst, admin } = await team();
    const first = await enter(analyst, creationBody([makeVin()]));
    const second = await enter(analyst, creationBody([makeVin()]));
    const packageId = await approvedPackage(analyst, admin, [first.id, second.id]);
    expect((await exportXml(admin, packageId)).statusCode).toBe(200);
    const sent = await send('POST', `/api/v1/pledges/packages/${packageId}/transition`, admin, {
      action: 'send',
    });
    expect(sent.statusCode).toBe(200);
    return { analyst, admin, packageId, first, second };
  }

  const eventOf = async (user: TestUser, id: string) =>
    (await send('GET', `/api/v1/pledges/events/${id}`, user)).json() as PledgeEvent & {
      rejections: { reason: string }[];
    };

  it('certificates in a ZIP number every notification and register the package, in one transaction with the audit log', async () => {
    const { admin, packageId, first, second } = await sentPackage();
    const [n1, n2] = [regNumber(), regNumber()];
    const zip = writeZip([
      { name: `${first.notificationId}.xml`, data: Buffer.from(certificate(first.notificationId, n1)) },
      { name: `${first.notificationId}.xml.sig`, data: Buffer.from('signature') },
      {
        name: `${second.notificationId}.xml`,
        data: Buffer.from(certificate(second.notificationId.toUpperCase(), n2, 'urn:x')),
      },
    ]);
    const response = await postResults(admin, packageId, 'ответ.zip', zip);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      updated: 2,
      package: { status: 'registered', registeredCount: 2 },
    });
    const one = await eventOf(admin, first.id);
    expect(one).toMatchObject({
      registeredNumber: n1,
      status: 'registered',
      pledge: { registrationNumber: n1 },
    });
    expect(one.registeredAt).toBe('2025-11-24T08:04:56.000Z');
    expect((await eventOf(admin, second.id)).registeredNumber).toBe(n2);
    const { rows } = await app.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity_id = $1 ORDER BY id`,
      [packageId],
    );
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['pledge_package.registry_results', 'pledge_package.register']),
    );
  });

  it('a rejection shows on that notification, which is corrected (the pledgor’s passport) and packaged again; a no-change correction is refused', async () => {
    const { analyst, admin, packageId, first, second } = await sentPackage();
    const xml = `<Results>${certificate(first.notificationId, regNumber()).replace(/<\?xml[^>]*>/, '')}${rejection(
      second.notificationId,
      'Неверные серия и номер паспорта залогодателя',
    ).replace(/<\?xml[^>]*>/, '')}</Results>`;
    const response = await postResults(admin, packageId, 'ответ.xml', xml);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().package.status).toBe('sent');
    const rejected = await eventOf(analyst, second.id);
    expect(rejected).toMatchObject({
      status: 'rejected',
      canCorrect: true,
      lastRejection: { packageId, reason: 'Неверные серия и номер паспорта залогодателя' },
    });
    // Manual «register» needs every number.
    const early = await send('POST', `/api/v1/pledges/packages/${packageId}/transition`, admin, {
      action: 'register',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/без номера 1 из 2/);

    const same = { ...creationBody([]), ...stripEvent(rejected) };
    const unchanged = await send('PUT', `/api/v1/pledges/events/${second.id}`, analyst, same);
    expect(unchanged.statusCode).toBe(422);
    expect(unchanged.json().message).toMatch(/Исправление ничего не меняет/);
    const fixed = { ...same, pledgor: { ...same.pledgor, documentNumber: '4510 777888' } };
    const corrected = await send('PUT', `/api/v1/pledges/events/${second.id}`, analyst, fixed);
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().event).toMatchObject({ status: 'new', package: null });
    expect(corrected.json().event.notificationId).not.toBe(second.notificationId);
    // The package it left is now wholly numbered: registered.
    const left = (await send('GET', `/api/v1/pledges/packages/${packageId}`, admin)).json();
    expect(left).toMatchObject({ status: 'registered', eventsCount: 1, registeredCount: 1 });
    const again = await approvedPackage(
      admin,
      await createSignedInUser(app, { role: 'analyst', organisationId: admin.organisationId }),
      [second.id],
    );
    const entries = await unzip((await exportXml(admin, again)).rawPayload);
    expect(entries[0]!.data.toString('utf8')).toContain('<SeriesNumber>4510777888</SeriesNumber>');
  });

  it('refuses each bad file with a Russian reason naming the file, and applies nothing', async () => {
    const { admin, packageId, first, second } = await sentPackage();
    const elsewhere = await sentPackage();
    const outsider = await createSignedInUser(app, { role: 'admin' });
    const foreign = await enter(outsider, creationBody([makeVin()]));
    const good = certificate(first.notificationId, regNumber());
    const deep = `<a>${'<b>'.repeat(100)}${'</b>'.repeat(100)}</a>`;
    const bomb = writeZip([{ name: 'bomb.xml', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]);
    const cases: [string, Buffer | string, RegExp][] = [
      [
        'неизвестный.xml',
        certificate(crypto.randomUUID(), regNumber()),
        /неизвестный\.xml — свидетельство: уведомление с NotificationId .* не найдено в вашей организации/,
      ],
      [
        'чужой-пакет.xml',
        certificate(elsewhere.first.notificationId, regNumber()),
        /не найдено в вашей организации/,
      ],
      [
        'чужая-организация.xml',
        certificate(foreign.notificationId, regNumber()),
        /не найдено в вашей организации/,
      ],
      [
        'номер.xml',
        certificate(second.notificationId, '2025-1-2-3'),
        /номер.xml — свидетельство для .*: номер «2025-1-2-3» — Регистрационный номер: формат ГГГГ-ННН-НННННН-ННН/,
      ],
      ['битый.xml', '<RegistrationCertificate><NotificationId>', /битый\.xml — XML повреждён/],
      [
        'doctype.xml',
        `<!DOCTYPE r [<!ENTITY x "y">]>${good}`.replace('<?xml version="1.0" encoding="UTF-8"?>\n', ''),
        /doctype\.xml — XML отклонён: объявления DOCTYPE и ENTITY в XML не допускаются/,
      ],
      [
        'сущность.xml',
        good.replace('</ns2:NotificationId>', '&x;</ns2:NotificationId>'),
        /сущность\.xml — XML повреждён/,
      ],
      ['глубина.xml', deep, /глубина\.xml — XML отклонён: вложенность элементов XML глубже 32 уровней/],
      ['бомба.zip', bomb, /бомба\.zip — архив распаковывается в недопустимо большой объём/],
      ['пусто.xml', '<Something/>', /пусто\.xml — нет ни свидетельства/],
      [
        'много.xml',
        `<a>${'<b/>'.repeat(20_001)}</a>`,
        /много\.xml — XML отклонён: в документе больше 20000 элементов XML/,
      ],
      [
        'длинный.xml',
        rejection(second.notificationId, 'я'.repeat(10_001)),
        /длинный\.xml — текст элемента RejectReason длиннее 10000 символов/,
      ],
    ];
    // A good certificate beside a bad one in the same ZIP: still nothing applied.
    cases.push([
      'смесь.zip',
      writeZip([
        { name: 'a.xml', data: Buffer.from(good) },
        { name: 'b.xml', data: Buffer.from(certificate(crypto.randomUUID(), regNumber())) },
      ]),
      /смесь\.zip › b\.xml — свидетельство: уведомление/,
    ]);
    for (const [name, content, pattern] of cases) {
      const response = await postResults(admin, packageId, name, content);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(422);
      expect(response.json().message, name).toMatch(/^Файл результатов не принят, ничего не внесено: /);
      expect(response.json().message, name).toMatch(pattern);
    }
    const { rows } = await app.db.query(
      `SELECT registered_number FROM pledge_events WHERE id = ANY($1) AND registered_number IS NOT NULL
       UNION ALL SELECT reason FROM pledge_event_rejections WHERE event_id = ANY($1)`,
      [[first.id, second.id, elsewhere.first.id, foreign.id]],
    );
    expect(rows).toEqual([]);
    expect((await send('GET', `/api/v1/pledges/packages/${packageId}`, admin)).json().status).toBe('sent');
  });
});

/** The form's body of a stored event (what «Исправить уведомление» starts from). */
function stripEvent(event: PledgeEvent) {
  const party = ({ name: _n, ...rest }: PledgeEvent['pledgor']) =>
    rest.type === 'company'
      ? { type: rest.type, name: event.pledgee.name, inn: rest.inn, ogrn: rest.ogrn }
      : rest;
  return {
    kind: event.kind,
    registrationNumber: event.registrationNumber,
    notificationDate: event.notificationDate,
    pledgor: party(event.pledgor) as Record<string, unknown>,
    pledgee: party(event.pledgee),
    contract: event.contract,
    vehicles: event.vehicles,
  };
}
