import type { ItemStatus } from '@pledgewatch/contract';
import {
  computeVinCheckDigit,
  type DocumentType,
  validateDocument,
  validateVin,
} from '@pledgewatch/identifiers';
import type { Queryable } from '../db/pool.ts';

/**
 * The demo organisation's portfolio: vehicles of makes sold in Russia with valid VINs (real WMIs,
 * correct check digits) and pledgor documents (passports, INNs with valid check digits). Seeded, so
 * every start, test and demo dataset sees the same items.
 */
export interface DemoItem {
  kind: 'vin' | 'document';
  documentType: DocumentType | null;
  identifier: string;
  label: string;
  contractNumber: string;
  pledgorName: string;
  status: ItemStatus;
  /** Days before the seed time the item was added. */
  createdDaysAgo: number;
  /** Hours before the seed time of the last check; null — never checked. */
  lastCheckedHoursAgo: number | null;
}

/** mulberry32: small, fast and good enough for demo data. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface DemoMake {
  wmi: string;
  make: string;
  models: { name: string; vds: string }[];
  plant: string;
  weight: number;
}

/** Makes and models common in Russian car loans, with their real WMI and a plausible VDS. */
const MAKES: DemoMake[] = [
  {
    wmi: 'XTA',
    make: 'LADA',
    plant: '0',
    weight: 24,
    models: [
      { name: 'Granta', vds: '21901' },
      { name: 'Vesta', vds: 'GFL11' },
      { name: 'Niva Legend', vds: '21214' },
      { name: 'Largus', vds: 'RS0Y5' },
      { name: 'XRAY', vds: 'GAB11' },
    ],
  },
  {
    wmi: 'Z94',
    make: 'Hyundai',
    plant: 'U',
    weight: 10,
    models: [
      { name: 'Solaris', vds: 'CB41A' },
      { name: 'Creta', vds: 'G8161' },
    ],
  },
  {
    wmi: 'Z94',
    make: 'Kia',
    plant: 'U',
    weight: 10,
    models: [
      { name: 'Rio', vds: 'C2512' },
      { name: 'Rio X', vds: 'K5812' },
    ],
  },
  {
    wmi: 'XWE',
    make: 'Kia',
    plant: 'K',
    weight: 5,
    models: [
      { name: 'Sportage', vds: 'PC81A' },
      { name: 'Sorento', vds: 'SP81B' },
    ],
  },
  {
    wmi: 'XW7',
    make: 'Toyota',
    plant: 'S',
    weight: 8,
    models: [
      { name: 'Camry', vds: 'BF4FK' },
      { name: 'RAV4', vds: 'ZRFV3' },
    ],
  },
  {
    wmi: 'XW8',
    make: 'Volkswagen',
    plant: 'K',
    weight: 7,
    models: [
      { name: 'Polo', vds: 'ZZZ6R' },
      { name: 'Tiguan', vds: 'ZZZ5N' },
    ],
  },
  {
    wmi: 'XW8',
    make: 'Škoda',
    plant: 'K',
    weight: 6,
    models: [
      { name: 'Rapid', vds: 'AN5NH' },
      { name: 'Octavia', vds: 'AN2NE' },
    ],
  },
  {
    wmi: 'X7L',
    make: 'Renault',
    plant: 'R',
    weight: 7,
    models: [
      { name: 'Logan', vds: 'ASRA1' },
      { name: 'Duster', vds: 'HSRD2' },
      { name: 'Arkana', vds: 'RJC52' },
    ],
  },
  {
    wmi: 'LGW',
    make: 'Haval',
    plant: 'N',
    weight: 7,
    models: [
      { name: 'Jolion', vds: 'EF5A3' },
      { name: 'F7', vds: 'EE7A4' },
    ],
  },
  {
    wmi: 'LVV',
    make: 'Chery',
    plant: 'D',
    weight: 6,
    models: [
      { name: 'Tiggo 7 Pro', vds: 'DB21B' },
      { name: 'Tiggo 4', vds: 'DC11A' },
    ],
  },
  {
    wmi: 'LB3',
    make: 'Geely',
    plant: 'N',
    weight: 5,
    models: [
      { name: 'Coolray', vds: 'A4AB1' },
      { name: 'Monjaro', vds: 'KJ4CD' },
    ],
  },
  { wmi: 'TMB', make: 'Škoda', plant: '0', weight: 2, models: [{ name: 'Kodiaq', vds: 'JJ7NS' }] },
  { wmi: 'VF1', make: 'Renault', plant: 'F', weight: 1, models: [{ name: 'Kaptur', vds: 'RJ0B5' }] },
  { wmi: 'WBA', make: 'BMW', plant: 'W', weight: 2, models: [{ name: 'X5', vds: 'CR010' }] },
];

/** Model-year codes of 2013–2025 (position 10). */
const YEAR_CODES: [string, number][] = [
  ['D', 2013],
  ['E', 2014],
  ['F', 2015],
  ['G', 2016],
  ['H', 2017],
  ['J', 2018],
  ['K', 2019],
  ['L', 2020],
  ['M', 2021],
  ['N', 2022],
  ['P', 2023],
  ['R', 2024],
  ['S', 2025],
];
const COLOURS = ['белый', 'чёрный', 'серый', 'серебристый', 'синий', 'красный', 'коричневый', 'зелёный'];
const SURNAMES = [
  'Иванов',
  'Смирнов',
  'Кузнецов',
  'Попов',
  'Васильев',
  'Петров',
  'Соколов',
  'Михайлов',
  'Новиков',
  'Фёдоров',
  'Морозов',
  'Волков',
  'Алексеев',
  'Лебедев',
  'Семёнов',
  'Егоров',
  'Павлов',
  'Козлов',
  'Степанов',
  'Николаев',
  'Орлов',
  'Андреев',
  'Макаров',
  'Никитин',
  'Захаров',
  'Зайцев',
  'Соловьёв',
  'Борисов',
  'Яковлев',
  'Григорьев',
];
const MALE_NAMES = [
  'Александр',
  'Дмитрий',
  'Максим',
  'Сергей',
  'Андрей',
  'Алексей',
  'Иван',
  'Михаил',
  'Артём',
  'Николай',
];
const FEMALE_NAMES = [
  'Анна',
  'Мария',
  'Елена',
  'Ольга',
  'Наталья',
  'Татьяна',
  'Ирина',
  'Екатерина',
  'Светлана',
  'Юлия',
];
const PATRONYMIC_ROOTS = [
  'Александров',
  'Дмитриев',
  'Сергеев',
  'Андреев',
  'Алексеев',
  'Иванов',
  'Михайлов',
  'Николаев',
  'Петров',
  'Викторов',
];
const COMPANIES = [
  'ООО «Автолизинг-Центр»',
  'ООО «ТрансЛогистик»',
  'АО «Северный путь»',
  'ООО «Грузовые перевозки»',
  'ООО «СтройТехМаш»',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function personName(random: () => number): string {
  const female = random() < 0.4;
  const surname = pick(random, SURNAMES);
  const patronymic = pick(random, PATRONYMIC_ROOTS);
  return female
    ? `${surname}а ${pick(random, FEMALE_NAMES)} ${patronymic}на`
    : `${surname} ${pick(random, MALE_NAMES)} ${patronymic}ич`;
}

const digits = (random: () => number, count: number) =>
  Array.from({ length: count }, () => Math.floor(random() * 10)).join('');

function innDigit(value: string, weights: readonly number[]): string {
  let sum = 0;
  for (const [index, weight] of weights.entries()) {
    sum += weight * Number(value.charAt(index));
  }
  return String((sum % 11) % 10);
}

/** An INN with correct check digits: 10 digits for a company, 12 for a person. */
export function demoInn(random: () => number, length: 10 | 12): string {
  // Region codes 77 (Moscow), 78 (St Petersburg), 50 (Moscow region) and the like.
  const region = pick(random, ['77', '78', '50', '66', '16', '23', '54']);
  if (length === 10) {
    const body = region + digits(random, 7);
    return body + innDigit(body, [2, 4, 10, 3, 5, 9, 4, 6, 8]);
  }
  const body = region + digits(random, 8);
  const eleven = body + innDigit(body, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
  return eleven + innDigit(eleven, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]);
}

/** A VIN of the make with a correct ISO 3779 check digit. */
export function demoVin(
  make: DemoMake,
  model: DemoMake['models'][number],
  yearCode: string,
  serial: number,
): string {
  const body = `${make.wmi}${model.vds}0${yearCode}${make.plant}${String(serial).padStart(6, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

export const DEMO_PORTFOLIO_SEED = 20260415;

/** The demo portfolio: `vehicles` VINs and `documents` pledgor documents, always the same for a seed. */
export function generateDemoPortfolio(
  options: { seed?: number; vehicles?: number; documents?: number } = {},
): DemoItem[] {
  const random = createRandom(options.seed ?? DEMO_PORTFOLIO_SEED);
  const vehicles = options.vehicles ?? 3000;
  const documents = options.documents ?? 200;
  const totalWeight = MAKES.reduce((sum, make) => sum + make.weight, 0);
  const items: DemoItem[] = [];
  const seen = new Set<string>();
  const status = (): ItemStatus => {
    const roll = random();
    return roll < 0.03 ? 'archived' : roll < 0.08 ? 'paused' : 'active';
  };
  const checked = () => (random() < 0.85 ? Math.round(random() * 30 * 10) / 10 : null);
  let contract = 1000;

  while (items.length < vehicles) {
    let roll = random() * totalWeight;
    const make =
      MAKES.find((candidate) => {
        roll -= candidate.weight;
        return roll < 0;
      }) ?? MAKES[0]!;
    const model = pick(random, make.models);
    const [yearCode, year] = pick(random, YEAR_CODES);
    const vin = demoVin(make, model, yearCode, 100000 + Math.floor(random() * 900000));
    if (seen.has(vin) || !validateVin(vin).ok) {
      continue;
    }
    seen.add(vin);
    contract += 1 + Math.floor(random() * 5);
    items.push({
      kind: 'vin',
      documentType: null,
      identifier: vin,
      label: `${make.make} ${model.name}, ${year}, ${pick(random, COLOURS)}`,
      contractNumber: `КД-${2019 + Math.floor(random() * 7)}/${String(contract).padStart(6, '0')}`,
      pledgorName: random() < 0.9 ? personName(random) : pick(random, COMPANIES),
      status: status(),
      createdDaysAgo: Math.floor(random() * 720),
      lastCheckedHoursAgo: checked(),
    });
  }

  let added = 0;
  while (added < documents) {
    const roll = random();
    const type: DocumentType = roll < 0.6 ? 'passport_rf' : 'inn';
    const number =
      type === 'passport_rf'
        ? `${pick(random, ['45', '46', '40', '65', '92', '03'])}${String(10 + Math.floor(random() * 15))}${digits(random, 6)}`
        : demoInn(random, roll < 0.9 ? 12 : 10);
    const checkedNumber = validateDocument(type, number);
    if (!checkedNumber.ok || seen.has(`${type}:${checkedNumber.value}`)) {
      continue;
    }
    seen.add(`${type}:${checkedNumber.value}`);
    const company = type === 'inn' && number.length === 10;
    const pledgor = company ? pick(random, COMPANIES) : personName(random);
    contract += 1 + Math.floor(random() * 5);
    items.push({
      kind: 'document',
      documentType: type,
      identifier: checkedNumber.value,
      label:
        type === 'passport_rf' ? 'Паспорт залогодателя' : company ? 'ИНН организации' : 'ИНН залогодателя',
      contractNumber: `КД-${2019 + Math.floor(random() * 7)}/${String(contract).padStart(6, '0')}`,
      pledgorName: pledgor,
      status: status(),
      createdDaysAgo: Math.floor(random() * 720),
      lastCheckedHoursAgo: checked(),
    });
    added++;
  }
  return items;
}

/** Puts the demo portfolio into an organisation (once: items already there are left alone). */
export async function seedDemoPortfolio(
  db: Queryable,
  organisationId: string,
  options: { seed?: number; vehicles?: number; documents?: number } = {},
): Promise<number> {
  const items = generateDemoPortfolio(options);
  let inserted = 0;
  for (let start = 0; start < items.length; start += 1000) {
    const batch = items.slice(start, start + 1000);
    const { rowCount } = await db.query(
      `INSERT INTO monitoring_items
         (organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name, status, origin,
          created_at, updated_at, archived_at, last_checked_at)
       SELECT $1, r.kind, r.document_type, r.identifier, r.label, r.contract_number, r.pledgor_name, r.status, 'demo',
              now() - make_interval(days => r.days), now() - make_interval(days => r.days),
              CASE WHEN r.status = 'archived' THEN now() - make_interval(days => r.days / 2) END,
              now() - make_interval(secs => r.hours * 3600)
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::float8[])
           AS r (kind, document_type, identifier, label, contract_number, pledgor_name, status, days, hours)
       ON CONFLICT DO NOTHING`,
      [
        organisationId,
        batch.map((i) => i.kind),
        batch.map((i) => i.documentType),
        batch.map((i) => i.identifier),
        batch.map((i) => i.label),
        batch.map((i) => i.contractNumber),
        batch.map((i) => i.pledgorName),
        batch.map((i) => i.status),
        batch.map((i) => i.createdDaysAgo),
        batch.map((i) => i.lastCheckedHoursAgo),
      ],
    );
    inserted += rowCount ?? 0;
  }
  return inserted;
}
