import type { PledgeEvent } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { FORMS, NOTIFICATION } from './format-2-3.ts';
import { notificationXml, readNotificationXml, validateNotification } from './notification-xml.ts';
import { parseXml } from './safe-xml.ts';
import { validateElement } from './xml-tree.ts';

const PERSON: PledgeEvent['pledgor'] = {
  type: 'individual',
  name: 'Иванов Иван Иванович',
  lastName: 'Иванов',
  firstName: 'Иван',
  middleName: 'Иванович',
  birthDate: '1980-02-01',
  documentType: 'passport_rf',
  documentNumber: '4506 123456',
};
const BANK: PledgeEvent['pledgee'] = {
  type: 'company',
  name: 'ПАО Сбербанк',
  inn: '7707083893',
  ogrn: '1027700132195',
};

function event(overrides: Partial<PledgeEvent> = {}): PledgeEvent {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    kind: 'creation',
    kindLabel: 'Возникновение',
    form: 'УЗ1',
    registrationNumber: null,
    registeredNumber: null,
    notificationDate: '2025-01-15',
    pledgor: PERSON,
    pledgee: BANK,
    contract: { name: 'Договор залога', number: 'ДЗ-1', date: '2025-01-15', endDate: '2030-01-15' },
    vehicles: [{ vin: 'XTA210740P0000017', bodyNumber: null, chassisNumber: null, description: 'LADA 2107' }],
    source: 'form',
    uploadId: null,
    rowNumber: null,
    pledge: { id: 'p', status: 'active', statusLabel: 'Действует', registrationNumber: null },
    package: null,
    status: 'ready',
    statusLabel: 'Готов к отправке',
    lapse: null,
    lastRejection: null,
    canCorrect: false,
    correctedAt: null,
    notificationId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    registeredAt: null,
    registryCheck: null,
    createdBy: null,
    createdAt: '2025-01-15T10:00:00.000Z',
    ...overrides,
  };
}

const messages = (e: PledgeEvent) => validateNotification(e).map((i) => `${i.field}: ${i.message}`);

describe('the registry format as data', () => {
  it('keeps the format 2.3 element order the lender client serialises', () => {
    const names = (spec: { children?: readonly { name: string }[] }) => spec.children!.map((c) => c.name);
    expect(names(NOTIFICATION)).toEqual(['NotificationId', 'NotificationData']);
    expect(names(FORMS.FormUZ1)).toEqual([
      'PersonalProperties',
      'Pledgors',
      'Pledgee',
      'PledgeContract',
      'NotificationApplicant',
    ]);
    expect(names(FORMS.FormUP1)).toEqual(['CreationReferenceNumber', 'NotificationApplicant']);
    expect(names(FORMS.FormUI1)[0]).toBe('CreationReferenceNumber');
  });

  it('writes UTF-8 XML in the namespace, version 2.3, elements in order and empty optionals left out', () => {
    const xml = notificationXml(
      event({ contract: { name: null, number: 'ДЗ-1', date: '2025-01-15', endDate: null } }),
    );
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<PledgeNotificationToNotary xmlns="http://fciit.ru/eisn/ruzdi/types/2.3" version="2.3">',
      ),
    ).toBe(true);
    expect(xml).toContain('<NotificationData version="2.3">');
    expect(xml).not.toContain('<TermOfContract');
    expect(xml).not.toContain('<Name></Name>');
    expect(xml).not.toMatch(/<(\w+)><\/\1>/);
    const order = [
      '<PersonalProperties>',
      '<Pledgors>',
      '<Pledgee>',
      '<PledgeContract>',
      '<NotificationApplicant>',
    ];
    expect(order.map((tag) => xml.indexOf(tag))).toEqual(
      [...order.map((tag) => xml.indexOf(tag))].sort((a, b) => a - b),
    );
    expect(xml).toContain('<SeriesNumber>4506123456</SeriesNumber>');
    expect(xml).toContain('<PublicationDisclaimer>false</PublicationDisclaimer>');
    expect(xml).toContain('<Role>2</Role>');
    expect(parseXml(xml).name).toBe('PledgeNotificationToNotary');
  });

  it('escapes text so a name with markup stays text', () => {
    const xml = notificationXml(event({ pledgee: { ...BANK, name: 'ООО «Ромашка & <Ко>»' } }));
    expect(xml).toContain('ООО «Ромашка &amp; &lt;Ко&gt;»');
    const read = readNotificationXml(xml);
    const uz1 = (read.value.NotificationData as Record<string, Record<string, unknown>>).FormUZ1!;
    expect(JSON.stringify(uz1.Pledgee)).toContain('ООО «Ромашка & <Ко>»');
  });
});

describe('validation by the format rules (Russian messages per field)', () => {
  it('passes a complete notification', () => {
    expect(validateNotification(event())).toEqual([]);
  });

  it('requires the vehicle description and one identifier, with the lengths of each', () => {
    const bad = event({
      vehicles: [
        { vin: null, bodyNumber: null, chassisNumber: null, description: null },
        {
          vin: 'XTA21074OP0000017',
          bodyNumber: 'Б'.repeat(21),
          chassisNumber: 'Ш'.repeat(26),
          description: 'x'.repeat(4001),
        },
      ],
    });
    expect(messages(bad)).toEqual([
      'имущество → имущество 1 → транспортное средство: укажите хотя бы одно из: VIN, PIN, номер шасси, номер кузова',
      'имущество → имущество 1 → транспортное средство → описание: обязательное поле',
      'имущество → имущество 2 → транспортное средство → VIN: 11 или 17 латинских букв и цифр, без I, O, Q',
      'имущество → имущество 2 → транспортное средство → номер шасси: не длиннее 25 символов (сейчас 26)',
      'имущество → имущество 2 → транспортное средство → номер кузова: не длиннее 20 символов (сейчас 21)',
      'имущество → имущество 2 → транспортное средство → описание: не длиннее 4000 символов (сейчас 4001)',
    ]);
  });

  it('takes an 11-character VIN (the format allows it) and refuses 12', () => {
    expect(
      validateNotification(
        event({
          vehicles: [{ vin: 'XTA21074000', bodyNumber: null, chassisNumber: null, description: 'x' }],
        }),
      ),
    ).toEqual([]);
    const twelve = messages(
      event({ vehicles: [{ vin: 'XTA210740001', bodyNumber: null, chassisNumber: null, description: 'x' }] }),
    );
    expect(twelve).toHaveLength(1);
    expect(twelve[0]).toMatch(/VIN: 11 или 17 латинских букв/);
  });

  it('refuses impossible dates and a party that is neither a person nor an organisation', () => {
    const bad = event({
      pledgor: { ...PERSON, birthDate: '1980-02-30' },
      contract: { name: null, number: 'ДЗ-1', date: '2025-13-01', endDate: null },
      pledgee: { type: 'company', name: '', inn: '77', ogrn: '1' },
    });
    const list = messages(bad);
    expect(list).toContain(
      'залогодатели → залогодатель → физическое лицо → дата рождения: дата в формате ГГГГ-ММ-ДД',
    );
    expect(list).toContain('договор залога → дата: дата в формате ГГГГ-ММ-ДД');
    expect(list.some((m) => m.endsWith('полное наименование: обязательное поле'))).toBe(true);
    expect(list.some((m) => m.endsWith('ИНН: 10 или 12 цифр'))).toBe(true);
    expect(list.some((m) => m.endsWith('ОГРН: 13 цифр (ОГРНИП — 15)'))).toBe(true);
    const neither = messages(event({ pledgor: { type: 'individual', name: '' } as PledgeEvent['pledgor'] }));
    expect(
      neither.some((m) => /залогодатель → физическое лицо → ФИО → фамилия: обязательное поле/.test(m)),
    ).toBe(true);
  });

  it('wants exactly one of a person or an organisation for a party', () => {
    const pledgor = FORMS.FormUZ1.children[1]!.children![0]!;
    expect(validateElement(pledgor, {}).map((i) => i.message)).toEqual([
      'укажите одно из: физическое лицо, юридическое лицо',
    ]);
    const both = {
      PrivatePerson: { Name: { Last: 'И', First: 'И' } },
      Organization: { RussianOrganization: {} },
    };
    expect(validateElement(pledgor, both)[0]!.message).toBe(
      'только одно из: физическое лицо, юридическое лицо',
    );
  });

  it('needs the creation number for a change or exclusion, and a document kind with a known code', () => {
    const exclusion = event({ kind: 'exclusion', form: 'УП1' });
    expect(messages(exclusion)).toEqual([
      'номер уведомления о возникновении: номер залога ещё не известен: сначала получите номер уведомления о возникновении (УЗ1)',
    ]);
    const licence = event({
      pledgor: { ...PERSON, documentType: 'driving_licence', documentNumber: '77АВ123456' },
    });
    expect(messages(licence)).toEqual([
      'залогодатель → документ: для вида документа «Водительское удостоверение» код формата реестра не известен: укажите паспорт гражданина РФ',
    ]);
  });
});
