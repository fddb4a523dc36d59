/** The pledge-events upload's template columns and how one file row becomes the form's event input. */
import type { PledgeEventData } from '@pledgewatch/contract';
import { CONTRACT_NUMBER_SYNONYMS, type UploadColumn, VIN_SYNONYMS } from '../uploads/index.ts';

const party = (prefix: 'pledgor' | 'pledgee', role: string): UploadColumn[] => [
  {
    field: `${prefix}Type`,
    title: `${role}: тип`,
    aliases: [`тип ${role.toLowerCase()}я`, `${role} тип лица`],
  },
  { field: `${prefix}LastName`, title: `${role}: фамилия`, aliases: [] },
  { field: `${prefix}FirstName`, title: `${role}: имя`, aliases: [] },
  { field: `${prefix}MiddleName`, title: `${role}: отчество`, aliases: [] },
  { field: `${prefix}BirthDate`, title: `${role}: дата рождения`, aliases: [], date: true },
  { field: `${prefix}DocumentType`, title: `${role}: вид документа`, aliases: [`${role}: документ`] },
  {
    field: `${prefix}DocumentNumber`,
    title: `${role}: серия и номер документа`,
    aliases: [`${role}: номер документа`],
  },
  { field: `${prefix}Name`, title: `${role}: наименование`, aliases: [`${role}: организация`] },
  { field: `${prefix}Inn`, title: `${role}: ИНН`, aliases: [] },
  { field: `${prefix}Ogrn`, title: `${role}: ОГРН`, aliases: [`${role}: ОГРНИП`] },
];

export const COLUMNS: UploadColumn[] = [
  {
    field: 'kind',
    title: 'Вид уведомления',
    aliases: ['вид', 'тип уведомления', 'вид события', 'событие', 'kind'],
  },
  {
    field: 'registrationNumber',
    title: 'Регистрационный номер',
    aliases: ['рег номер', 'номер уведомления', 'регистрационный номер залога', 'registration number'],
  },
  {
    field: 'notificationDate',
    title: 'Дата уведомления',
    aliases: ['дата события', 'notification date'],
    date: true,
  },
  ...party('pledgor', 'Залогодатель'),
  ...party('pledgee', 'Залогодержатель'),
  { field: 'contractName', title: 'Договор: наименование', aliases: ['наименование договора'] },
  { field: 'contractNumber', title: 'Договор: номер', aliases: CONTRACT_NUMBER_SYNONYMS },
  { field: 'contractDate', title: 'Договор: дата', aliases: ['дата договора'], date: true },
  {
    field: 'contractEndDate',
    title: 'Договор: срок исполнения',
    aliases: ['срок договора', 'дата окончания договора', 'договор срок'],
    date: true,
  },
  { field: 'vin', title: 'VIN', aliases: VIN_SYNONYMS },
  { field: 'bodyNumber', title: 'Номер кузова', aliases: ['кузов'] },
  { field: 'chassisNumber', title: 'Номер шасси', aliases: ['шасси', 'номер шасси рамы'] },
  {
    field: 'description',
    title: 'Описание ТС',
    aliases: ['описание', 'марка модель', 'транспортное средство'],
  },
];

export const KINDS: Record<string, PledgeEventData['kind']> = {
  возникновение: 'creation',
  'возникновение залога': 'creation',
  создание: 'creation',
  уз1: 'creation',
  creation: 'creation',
  изменение: 'change',
  'изменение залога': 'change',
  уи1: 'change',
  change: 'change',
  исключение: 'exclusion',
  'исключение залога': 'exclusion',
  прекращение: 'exclusion',
  уп1: 'exclusion',
  exclusion: 'exclusion',
};

/**
 * The kind a file's «Вид уведомления» names: a word, a form code (УЗ1, УИ1, УП1, also «уз-1») or
 * both, as the export writes it («Возникновение (УЗ1)»). Undefined when it names none of them.
 */
export function kindOf(value: string | undefined): PledgeEventData['kind'] | undefined {
  const text = key(value);
  const plain = (part: string) => KINDS[part] ?? KINDS[part.replace(/[\s-]/g, '')];
  const bracketed = /^(.*?)\s*\((.*)\)$/.exec(text);
  if (!bracketed) {
    return plain(text);
  }
  const [word, code] = [plain(bracketed[1]!.trim()), plain(bracketed[2]!.trim())];
  return word && code && word !== code ? undefined : (word ?? code);
}

const PARTY_TYPES: Record<string, 'individual' | 'company'> = {
  фл: 'individual',
  'физическое лицо': 'individual',
  физлицо: 'individual',
  individual: 'individual',
  юл: 'company',
  'юридическое лицо': 'company',
  организация: 'company',
  company: 'company',
};

const PARTY_DOCUMENTS: Record<string, string> = {
  '': 'passport_rf',
  паспорт: 'passport_rf',
  'паспорт рф': 'passport_rf',
  'паспорт гражданина рф': 'passport_rf',
  passport_rf: 'passport_rf',
  ву: 'driving_licence',
  'водительское удостоверение': 'driving_licence',
  driving_licence: 'driving_licence',
};

export const key = (value: string | undefined) =>
  (value ?? '')
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[«»"'.]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function partyInput(values: Readonly<Record<string, string>>, prefix: 'pledgor' | 'pledgee') {
  const v = (name: string) => values[`${prefix}${name}`] ?? '';
  const typeText = key(v('Type'));
  const type =
    PARTY_TYPES[typeText] ??
    (typeText === '' ? (v('Name') || v('Inn') || v('Ogrn') ? 'company' : 'individual') : typeText);
  if (type === 'company') {
    return { type, name: v('Name'), inn: v('Inn'), ogrn: v('Ogrn') };
  }
  return {
    type,
    lastName: v('LastName'),
    firstName: v('FirstName'),
    middleName: v('MiddleName'),
    birthDate: v('BirthDate'),
    documentType: PARTY_DOCUMENTS[key(v('DocumentType'))] ?? v('DocumentType'),
    documentNumber: v('DocumentNumber'),
  };
}

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The template column a zod issue is about (pledgor.inn → pledgorInn, vehicles.0.vin → vin). */
export function fieldOf(path: readonly PropertyKey[]): string | null {
  const [head, second, third] = path.map(String);
  if (head === 'pledgor' || head === 'pledgee') {
    return `${head}${second ? capitalise(second === 'name' ? 'name' : second) : 'Type'}`;
  }
  if (head === 'contract') {
    return `contract${capitalise(second ?? 'number')}`;
  }
  if (head === 'vehicles') {
    return third ?? 'vin';
  }
  return head ?? null;
}

/** The columns of one file row → the form's event input (one vehicle). */
export function rowToEventInput(values: Readonly<Record<string, string>>) {
  const kindText = key(values.kind);
  return {
    kind: kindOf(values.kind) ?? (kindText || undefined),
    registrationNumber: values.registrationNumber,
    notificationDate: values.notificationDate ?? '',
    pledgor: partyInput(values, 'pledgor'),
    pledgee: partyInput(values, 'pledgee'),
    contract: {
      name: values.contractName,
      number: values.contractNumber ?? '',
      date: values.contractDate ?? '',
      endDate: values.contractEndDate,
    },
    vehicles: [
      {
        vin: values.vin,
        bodyNumber: values.bodyNumber,
        chassisNumber: values.chassisNumber,
        description: values.description,
      },
    ],
  };
}
