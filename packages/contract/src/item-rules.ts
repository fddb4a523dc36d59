import {
  DOCUMENT_TYPE_CODES,
  type DocumentType,
  detectDocumentType,
  formatDocument,
  isDocumentType,
  validateDocument,
  validateVin,
} from '@pledgewatch/identifiers';
import { DOCUMENT_TYPE_LABELS, ITEM_TEXT_LIMITS, type ItemKind } from './monitoring-items.ts';

/**
 * One row of the portfolio as typed, pasted or read from a file, checked by the identifier rules.
 * Hand entry and file uploads share these rules so they say the same thing.
 */
export interface ItemRowInput {
  vin?: string | null;
  documentType?: string | null;
  number?: string | null;
  label?: string | null;
  contractNumber?: string | null;
  pledgorName?: string | null;
}

export interface ValidItemRow {
  kind: ItemKind;
  documentType: DocumentType | null;
  identifier: string;
  label: string | null;
  contractNumber: string | null;
  pledgorName: string | null;
  warning: string | null;
}

export interface RowProblem {
  field: string | null;
  message: string;
}

export type ItemRowResult = { ok: true; row: ValidItemRow } | { ok: false; problems: RowProblem[] };

const TEXT_FIELDS = [
  ['label', 'Метка', ITEM_TEXT_LIMITS.label],
  ['contractNumber', 'Номер договора', ITEM_TEXT_LIMITS.contractNumber],
  ['pledgorName', 'Залогодатель', ITEM_TEXT_LIMITS.pledgorName],
] as const;

const normaliseWord = (value: string) =>
  value
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[^0-9a-zа-я]+/g, ' ')
    .trim();

/** What people write in a "document type" column, besides the codes themselves. */
const DOCUMENT_TYPE_ALIASES: Record<string, DocumentType> = {
  паспорт: 'passport_rf',
  'паспорт рф': 'passport_rf',
  'паспорт гражданина рф': 'passport_rf',
  'паспорт гражданина российской федерации': 'passport_rf',
  passport: 'passport_rf',
  'passport rf': 'passport_rf',
  ву: 'driving_licence',
  'водительское удостоверение': 'driving_licence',
  'вод удостоверение': 'driving_licence',
  'driving licence': 'driving_licence',
  'driving license': 'driving_licence',
  'driver license': 'driving_licence',
  птс: 'pts',
  pts: 'pts',
  эптс: 'epts',
  epts: 'epts',
  стс: 'sts',
  sts: 'sts',
  инн: 'inn',
  inn: 'inn',
  огрн: 'ogrn',
  ogrn: 'ogrn',
  огрнип: 'ogrnip',
  ogrnip: 'ogrnip',
};
for (const code of DOCUMENT_TYPE_CODES) {
  DOCUMENT_TYPE_ALIASES[normaliseWord(code)] = code;
  DOCUMENT_TYPE_ALIASES[normaliseWord(DOCUMENT_TYPE_LABELS[code])] = code;
}

/** A document type as typed (code or Russian name); null when empty, undefined when not recognised. */
export function parseDocumentType(input: string | null | undefined): DocumentType | null | undefined {
  const value = (input ?? '').trim();
  if (value === '') {
    return null;
  }
  if (isDocumentType(value)) {
    return value;
  }
  return DOCUMENT_TYPE_ALIASES[normaliseWord(value)];
}

function cleanText(value: string | null | undefined): string | null {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

function checkTexts(input: ItemRowInput, problems: RowProblem[]) {
  const texts = {} as Record<(typeof TEXT_FIELDS)[number][0], string | null>;
  for (const [field, title, max] of TEXT_FIELDS) {
    const text = cleanText(input[field]);
    if (text !== null && text.length > max) {
      problems.push({
        field,
        message: `${title}: максимальная длина — ${max} симв., указано ${text.length}`,
      });
    }
    texts[field] = text;
  }
  return texts;
}

export function validateVinRow(input: ItemRowInput): ItemRowResult {
  const problems: RowProblem[] = [];
  const result = validateVin(input.vin ?? '');
  if (!result.ok) {
    problems.push({ field: 'vin', message: result.error });
  }
  const texts = checkTexts(input, problems);
  if (!result.ok || problems.length > 0) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    row: {
      kind: 'vin',
      documentType: null,
      identifier: result.value,
      ...texts,
      warning: result.warnings[0] ?? null,
    },
  };
}

export function validateDocumentRow(input: ItemRowInput): ItemRowResult {
  const problems: RowProblem[] = [];
  const number = input.number ?? '';
  let type = parseDocumentType(input.documentType);
  if (type === undefined) {
    problems.push({
      field: 'documentType',
      message: `Тип документа: «${(input.documentType ?? '').trim()}» не распознан — укажите паспорт РФ, ВУ, ПТС, ЭПТС, СТС, ИНН, ОГРН или ОГРНИП`,
    });
  } else if (type === null) {
    type = number.trim() === '' ? null : detectDocumentType(number);
    if (type === null && number.trim() !== '') {
      problems.push({
        field: 'documentType',
        message: 'Тип документа: не указан и не определяется по номеру — выберите тип',
      });
    }
  }
  let identifier = '';
  if (number.trim() === '') {
    problems.push({ field: 'number', message: 'Номер документа: обязательное поле' });
  } else if (type) {
    const result = validateDocument(type, number);
    if (result.ok) {
      identifier = result.value;
    } else {
      problems.push({ field: 'number', message: result.error });
    }
  }
  const texts = checkTexts(input, problems);
  if (problems.length > 0 || !type) {
    return { ok: false, problems };
  }
  return { ok: true, row: { kind: 'document', documentType: type, identifier, ...texts, warning: null } };
}

/** A row of a mixed file: a VIN, or a document, but not both in one row. */
export function validateItemRow(input: ItemRowInput): ItemRowResult {
  const hasVin = (input.vin ?? '').trim() !== '';
  const hasDocument = (input.number ?? '').trim() !== '';
  if (hasVin && hasDocument) {
    return {
      ok: false,
      problems: [
        {
          field: null,
          message:
            'В строке указаны и VIN, и документ: укажите одно (документ залогодателя — отдельной строкой)',
        },
      ],
    };
  }
  if (!hasVin && !hasDocument) {
    return {
      ok: false,
      problems: [{ field: 'vin', message: 'Укажите VIN или номер документа' }],
    };
  }
  return hasVin ? validateVinRow(input) : validateDocumentRow(input);
}

/** The key under which an organisation can hold one item. */
export const identityKey = (row: Pick<ValidItemRow, 'kind' | 'documentType' | 'identifier'>) =>
  `${row.kind}|${row.documentType ?? ''}|${row.identifier}`;

export function displayIdentifier(documentType: string | null, identifier: string): string {
  return documentType && isDocumentType(documentType) ? formatDocument(documentType, identifier) : identifier;
}
