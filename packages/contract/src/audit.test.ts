import { describe, expect, it } from 'vitest';
import { describeAuditDetails } from './audit.ts';

/** The details of each kind of entry as the server records them (see the recordAudit calls). */
const party = {
  type: 'individual',
  lastName: 'Иванов',
  firstName: 'Иван',
  middleName: null,
  birthDate: '1980-01-02',
  documentType: 'passport_rf',
  documentNumber: '4510 123456',
};
const pledgeEvent = {
  kind: 'creation',
  registrationNumber: null,
  notificationDate: '2026-03-01',
  pledgor: party,
  pledgee: { type: 'company', name: 'АО «Банк»', inn: '7736207543', ogrn: '1027700132195' },
  contract: { name: 'Кредитный договор', number: 'КД-1', date: '2026-02-01', endDate: '2029-02-01' },
  vehicles: [{ vin: 'XTA21703080123456', bodyNumber: null, chassisNumber: null, description: 'Lada' }],
};
const RECORDED: Record<string, Record<string, unknown>> = {
  'pledge.corrected': {
    pledgeId: '0c2d…',
    rejectedPackageId: null,
    before: pledgeEvent,
    after: {
      ...pledgeEvent,
      contract: { ...pledgeEvent.contract, number: 'КД-2' },
      vehicles: [{ ...pledgeEvent.vehicles[0], vin: 'XTA21703080123457' }],
    },
    monitoringAdded: 1,
    monitoringArchived: 1,
  },
  'pledge.creation': {
    pledgeId: 'p1',
    registrationNumber: null,
    contractNumber: 'КД-1',
    monitoringAdded: 1,
    monitoringArchived: 0,
  },
  'pledge_package.registry_results': {
    file: 'ответ.xml',
    certificates: [{ notificationId: 'n1', number: '2026-000-000001-111' }],
    rejections: [{ notificationId: 'n2', reason: 'Неверный VIN' }],
  },
  'pledge_package.reject': { from: 'sent', to: 'rejected', comment: 'Ошибка', rejected: 2 },
  'email.changed': { from: 'old@example.ru', to: 'new@example.ru' },
  'user.updated': { email: 'a@example.ru', changes: { role: { from: 'analyst', to: 'admin' } } },
  'notification_rule.update': {
    name: 'Критичные',
    changes: {
      eventTypes: { from: ['new_finding'], to: ['new_finding', 'finding_gone'] },
      itemFilter: {
        from: { label: null, contractNumber: null },
        to: { label: 'Лизинг', contractNumber: null },
      },
      recipients: { from: ['a@example.ru'], to: [] },
      token: { from: '••••', to: '•••• (изменён)' },
    },
  },
  'check_schedule.updated': { enabled: true, time: '03:00', timezone: 'Europe/Moscow' },
  'upload.imported': { kind: 'pledge_events', inserted: 3, restored: 0, duplicates: 1 },
  'monitoring.items_added': { kind: 'vin', added: 2, restored: 0 },
  'source.imported': { type: 'passport', fileName: 'list.csv', bytes: 1024 },
  'pledge.events_imported': {
    events: 3,
    packageId: '9b2f6c1e-4d7a-4b8e-9f3a-2c1d0e5f6a7b',
    monitoringAdded: 3,
    monitoringArchived: 0,
  },
};

describe('describeAuditDetails', () => {
  it.each(Object.entries(RECORDED))('says what %s changed in Russian words, never as JSON', (_, details) => {
    const lines = describeAuditDetails(details);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toMatch(/[{}"[\]]/);
      expect(line).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/i);
      // The field before the colon is named in Russian (VIN and E-mail are the product's own words).
      const field = line.slice(0, line.indexOf(':'));
      expect(field).toMatch(/^(?:[А-ЯЁа-яё0-9 ,.()]|VIN|E-mail|ИНН)+$/);
    }
  });

  it('shows a correction as the fields that differ, «поле: было → стало»', () => {
    const lines = describeAuditDetails(RECORDED['pledge.corrected']!);
    expect(lines).toContain('Договор, номер: КД-1 → КД-2');
    expect(lines).toContain(
      'Транспортные средства: VIN: XTA21703080123456, описание: Lada → VIN: XTA21703080123457, описание: Lada',
    );
    expect(lines.some((line) => line.startsWith('Залогодатель'))).toBe(false);
  });

  it('shows a transition and a changed list as one line each, codes in words', () => {
    expect(describeAuditDetails(RECORDED['pledge_package.reject']!)).toEqual([
      'Статус: Отправлен → Отклонён',
      'Комментарий: Ошибка',
      'Отклонено: 2',
    ]);
    expect(describeAuditDetails(RECORDED['email.changed']!)).toEqual([
      'E-mail: old@example.ru → new@example.ru',
    ]);
    expect(describeAuditDetails(RECORDED['user.updated']!)).toContain('Роль: Аналитик → Администратор');
    expect(describeAuditDetails(RECORDED['notification_rule.update']!)).toContain(
      'Фильтр объектов: — → метка: Лизинг',
    );
  });
});

it('never shows a database id, alone, in a list, nested or in a correction', () => {
  const id = '4432e7f2-08a7-4ede-ba26-2c604628581c';
  const lines = describeAuditDetails({
    pledgeId: id,
    contractNumber: 'ДЗ-ДЕМО-006',
    eventIds: [id, id],
    contract: { number: 'КД-7', packageId: id },
    before: { contract: { number: 'КД-1' }, packageId: id },
    after: { contract: { number: 'КД-2' }, packageId: null },
  });
  expect(lines).toEqual([
    'Номер договора: ДЗ-ДЕМО-006',
    'Договор: номер: КД-7',
    'Договор, номер: КД-1 → КД-2',
    'Пакет: — → —',
  ]);
});

it('names a source by its Russian name', () => {
  expect(describeAuditDetails({ type: 'pledges', removed: 3 })).toEqual([
    'Тип: Реестр залогов',
    'Удалено: 3',
  ]);
});
