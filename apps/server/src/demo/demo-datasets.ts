import type { SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../db/pool.ts';
import { importPassportListIn } from '../modules/checks/passport-list/passport-list.service.ts';
import { type DatasetRecord, getActiveImport } from '../modules/checks/sources/sources.queries.ts';
import { importDatasetIn } from '../modules/checks/sources/sources.service.ts';

/** A VIN pledged to another creditor in the demo pledge dataset, for the one-time-check demo and e2e. */
export const DEMO_PLEDGED_VIN = 'XTA217030C0412345';
export const DEMO_PLEDGE_NOTICE = '2024-001-234567-890';
/**
 * A second VIN pledged to another creditor that nothing puts on monitoring (not the demo portfolio,
 * not its history, not the integration example): the e2e regular run adds it itself, so that run's
 * first check of it always has a pledge to report, whatever ran before.
 */
export const DEMO_UNWATCHED_PLEDGED_VIN = 'XTA217032C0412346';
export const DEMO_UNWATCHED_PLEDGE_NOTICE = '2024-001-234568-901';
/** A passport in the demo list of invalid passports. */
export const DEMO_INVALID_PASSPORT = '4510123456';

const NOTE = 'ДЕМО: демонстрационная запись, не сведения реального реестра';
export const demoRecordPayload = (payload: Record<string, unknown>) => ({
  ...payload,
  demo: true,
  note: NOTE,
});
const date = (index: number, year = 2024) =>
  `${year}-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 27) + 1).padStart(2, '0')}`;

const CREDITORS = [
  'ООО «Альфа-Лизинг»',
  'АО «Автокредит Восток»',
  'ПАО «Северный банк»',
  'ООО МФК «Быстрые деньги»',
];
const REGIONS = [
  'Москва',
  'Санкт-Петербург',
  'Московская область',
  'Республика Татарстан',
  'Свердловская область',
];

export interface DemoPortfolioRow {
  kind: 'vin' | 'document';
  document_type: string | null;
  identifier: string;
}

/**
 * Deterministic demo datasets built over the demo organisation's portfolio: some vehicles are
 * pledged to another creditor, wanted, restricted or had accidents; some pledgors are bankrupt, owe
 * bailiffs, or hold an invalid passport. Every record says it is demo data. A source type that
 * already has an active dataset is left alone, so demo data never replaces real data.
 */
export async function seedDemoDatasets(tx: Queryable, organisationId: string): Promise<void> {
  const records = buildDemoDatasets(await demoPortfolioItems(tx, organisationId));
  for (const [type, list] of Object.entries(records) as [SourceType, DatasetRecord[]][]) {
    if (await getActiveImport(tx, type)) {
      continue;
    }
    if (type === 'passport') {
      // The MVD list holds passports only: no reason or date; the version is marked demo as a whole.
      const passports = list.map((record) => record.identifier);
      await importPassportListIn(tx, { fileName: 'demo-passport.csv', passports, demo: true });
    } else {
      await importDatasetIn(tx, { type, fileName: `demo-${type}.json`, records: list });
    }
  }
}

/** The demo portfolio's own items (not those the demo history adds later), in identifier order. */
export async function demoPortfolioItems(db: Queryable, organisationId: string): Promise<DemoPortfolioRow[]> {
  const { rows } = await db.query<DemoPortfolioRow>(
    `SELECT kind, document_type, identifier FROM monitoring_items
      WHERE organisation_id = $1 AND origin = 'demo' ORDER BY identifier`,
    [organisationId],
  );
  return rows;
}

/** Every demo dataset's records over the portfolio: the same for the same items. */
export function buildDemoDatasets(items: DemoPortfolioRow[]): Record<SourceType, DatasetRecord[]> {
  const vins = items.filter((item) => item.kind === 'vin').map((item) => item.identifier);
  const documents = items.filter((item) => item.kind === 'document');
  const records: Record<SourceType, DatasetRecord[]> = {
    pledges: [],
    wanted: [],
    restrictions: [],
    registration: [],
    accidents: [],
    bankruptcy: [],
    enforcement: [],
    passport: [],
  };
  const vinRecord = (identifier: string, key: string, payload: Record<string, unknown>): DatasetRecord => ({
    documentType: '',
    identifier,
    key,
    payload: demoRecordPayload(payload),
  });

  records.pledges.push(
    vinRecord(DEMO_PLEDGED_VIN, DEMO_PLEDGE_NOTICE, {
      notice_number: DEMO_PLEDGE_NOTICE,
      status: 'active',
      registered_at: '2024-03-15',
      pledgor: 'Иванов Пётр Сергеевич',
      pledgee: CREDITORS[0],
      pledgee_inn: '7701234567',
      contract: 'КД-2024/0315',
    }),
  );
  vins.forEach((vin, index) => {
    const n = String(index + 1).padStart(6, '0');
    if (index % 9 === 0) {
      records.pledges.push(
        vinRecord(vin, `2024-DEMO-${n}`, {
          notice_number: `2024-DEMO-${n}`,
          status: 'active',
          registered_at: date(index),
          pledgee: CREDITORS[index % CREDITORS.length],
          contract: `ДЗ-${n}`,
        }),
      );
    }
    if (index % 9 === 4) {
      records.pledges.push(
        vinRecord(vin, `2021-DEMO-${n}`, {
          notice_number: `2021-DEMO-${n}`,
          status: 'excluded',
          registered_at: date(index, 2021),
          pledgee: CREDITORS[(index + 1) % CREDITORS.length],
        }),
      );
    }
    if (index % 13 === 2) {
      records.wanted.push(
        vinRecord(vin, `РЗ-${n}`, {
          record_id: `РЗ-${n}`,
          since: date(index, 2025),
          region: REGIONS[index % REGIONS.length],
          initiator: 'ГУ МВД',
        }),
      );
    }
    if (index % 7 === 3) {
      records.restrictions.push(
        vinRecord(vin, `ОГР-${n}`, {
          record_id: `ОГР-${n}`,
          kind: 'Запрет на регистрационные действия',
          imposed_at: date(index, 2025),
          imposed_by: 'Судебный пристав-исполнитель',
        }),
      );
    }
    if (index % 11 === 5) {
      records.registration.push(
        vinRecord(vin, `РД-${n}-2`, {
          record_id: `РД-${n}-2`,
          operation: 'Смена владельца',
          date: date(index, 2025),
          owner_type: 'Физическое лицо',
        }),
      );
    }
    if (index % 6 === 5) {
      records.accidents.push(
        vinRecord(vin, `ДТП-${n}`, {
          record_id: `ДТП-${n}`,
          date: date(index, 2025),
          region: REGIONS[index % REGIONS.length],
          kind: 'Столкновение',
          damage: 'Передний бампер, капот',
        }),
      );
    }
  });

  records.passport.push({
    documentType: 'passport_rf',
    identifier: DEMO_INVALID_PASSPORT,
    key: DEMO_INVALID_PASSPORT,
    payload: demoRecordPayload({ record_id: DEMO_INVALID_PASSPORT, reason: 'Утрачен', since: '2024-06-01' }),
  });
  documents.forEach((document, index) => {
    const n = String(index + 1).padStart(6, '0');
    const base = { documentType: document.document_type ?? '', identifier: document.identifier };
    const isPerson = ['passport_rf', 'inn', 'ogrn', 'ogrnip'].includes(base.documentType);
    if (base.documentType === 'passport_rf' && index % 5 === 0) {
      records.passport.push({
        ...base,
        key: document.identifier,
        payload: demoRecordPayload({
          record_id: document.identifier,
          reason: 'Истёк срок действия',
          since: date(index, 2024),
        }),
      });
    }
    if (isPerson && index % 4 === 1) {
      records.bankruptcy.push({
        ...base,
        key: `А40-${n}/2025`,
        payload: demoRecordPayload({
          case_number: `А40-${n}/2025`,
          status: 'open',
          opened_at: date(index, 2025),
          court: 'Арбитражный суд г. Москвы',
        }),
      });
    }
    if (isPerson && index % 3 === 2) {
      records.enforcement.push({
        ...base,
        key: `${n}/25/77001-ИП`,
        payload: demoRecordPayload({
          proceeding_number: `${n}/25/77001-ИП`,
          status: 'open',
          opened_at: date(index, 2025),
          amount: 150_000 + index * 1000,
          department: 'ОСП по Центральному АО',
          subject: 'Задолженность по кредитным платежам',
        }),
      });
    }
  });

  records.pledges.push(
    vinRecord(DEMO_UNWATCHED_PLEDGED_VIN, DEMO_UNWATCHED_PLEDGE_NOTICE, {
      notice_number: DEMO_UNWATCHED_PLEDGE_NOTICE,
      status: 'active',
      registered_at: '2024-04-02',
      pledgor: 'Смирнова Анна Викторовна',
      pledgee: CREDITORS[1],
      contract: 'КД-2024/0402',
    }),
  );
  return records;
}
