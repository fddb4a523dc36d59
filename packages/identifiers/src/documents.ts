import { plural } from './plural.ts';
/**
 * Russian identity, vehicle and company documents: one normal form for storage and matching, one
 * display form, and validation messages that name the field and the rule.
 */

export const DOCUMENT_TYPE_CODES = [
  'passport_rf',
  'driving_licence',
  'pts',
  'epts',
  'sts',
  'inn',
  'ogrn',
  'ogrnip',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPE_CODES)[number];

/** Russian labels, also used as the field name in error messages. */
export const DOCUMENT_TYPES: Readonly<Record<DocumentType, string>> = {
  passport_rf: 'Паспорт РФ',
  driving_licence: 'Водительское удостоверение',
  pts: 'ПТС',
  epts: 'ЭПТС',
  sts: 'СТС',
  inn: 'ИНН',
  ogrn: 'ОГРН',
  ogrnip: 'ОГРНИП',
};

/**
 * The label of the number field for each type: only documents with a series say «Серия и номер»;
 * company and taxpayer numbers are named by what they are.
 */
export const DOCUMENT_NUMBER_LABELS: Readonly<Record<DocumentType, string>> = {
  passport_rf: 'Серия и номер',
  driving_licence: 'Серия и номер',
  pts: 'Серия и номер',
  epts: 'Номер ЭПТС',
  sts: 'Серия и номер',
  inn: 'Номер ИНН',
  ogrn: 'Номер ОГРН',
  ogrnip: 'Номер ОГРНИП',
};

export type DocumentValidation = { ok: true; value: string } | { ok: false; error: string };

type DocumentRule = {
  /** The rule as the user should read it after the field name. */
  rule: string;
  /** Full shape of the normal form. */
  pattern: RegExp;
  /** Digit-only documents get a digit count in the message; the others a character count. */
  digitsOnly: boolean;
  /** Series/number split for display, as lengths of the groups. */
  groups?: readonly number[];
};

const RULES: Readonly<Record<DocumentType, DocumentRule>> = {
  passport_rf: {
    rule: 'серия — 4 цифры, номер — 6 цифр',
    pattern: /^\d{10}$/,
    digitsOnly: true,
    groups: [2, 2, 6],
  },
  driving_licence: {
    rule: 'серия — 2 цифры и 2 цифры или русские буквы, номер — 6 цифр',
    pattern: /^\d{2}[\dА-ЯЁ]{2}\d{6}$/,
    digitsOnly: false,
    groups: [2, 2, 6],
  },
  pts: {
    rule: 'серия — 2 цифры и 2 русские буквы, номер — 6 цифр',
    pattern: /^\d{2}[А-ЯЁ]{2}\d{6}$/,
    digitsOnly: false,
    groups: [2, 2, 6],
  },
  epts: { rule: 'номер — 15 цифр', pattern: /^\d{15}$/, digitsOnly: true },
  sts: {
    rule: 'серия — 2 цифры и 2 русские буквы или цифры, номер — 6 цифр',
    pattern: /^\d{2}[\dА-ЯЁ]{2}\d{6}$/,
    digitsOnly: false,
    groups: [2, 2, 6],
  },
  inn: {
    rule: '10 цифр для организации или 12 цифр для физического лица',
    pattern: /^(\d{10}|\d{12})$/,
    digitsOnly: true,
  },
  ogrn: { rule: '13 цифр', pattern: /^\d{13}$/, digitsOnly: true },
  ogrnip: { rule: '15 цифр', pattern: /^\d{15}$/, digitsOnly: true },
};

/** Spaces, dashes and the number sign people type between series and number. */
const DOCUMENT_SEPARATORS = /[\s\u200B-\u200D\u2060\uFEFF\-\u2010-\u2015\u2212№]+/g;

/**
 * Latin letters that look like Cyrillic ones. Series letters of PTS, STS and driving licences are
 * Cyrillic, but people often type them on a Latin layout.
 */
const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = {
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
  Y: 'У',
};

const LETTER_SERIES_TYPES: ReadonlySet<DocumentType> = new Set(['driving_licence', 'pts', 'sts']);

export function isDocumentType(value: unknown): value is DocumentType {
  return typeof value === 'string' && (DOCUMENT_TYPE_CODES as readonly string[]).includes(value);
}

/** Canonical storage form: no separators, upper case, Cyrillic series letters ("78УС123456"). */
export function normalizeDocument(type: DocumentType, input: string): string {
  const compact = input.replace(DOCUMENT_SEPARATORS, '').toUpperCase();
  if (!LETTER_SERIES_TYPES.has(type)) {
    return compact;
  }
  let result = '';
  for (const char of compact) {
    result += LATIN_TO_CYRILLIC[char] ?? char;
  }
  return result;
}

/** Display form ("45 06 123456", "78 УС 123456"); anything not in normal form is returned as is. */
export function formatDocument(type: DocumentType, normalized: string): string {
  const { pattern, groups } = RULES[type];
  if (!groups || !pattern.test(normalized)) {
    return normalized;
  }
  const parts: string[] = [];
  let offset = 0;
  for (const length of groups) {
    parts.push(normalized.slice(offset, offset + length));
    offset += length;
  }
  return parts.join(' ');
}

export function validateDocument(type: DocumentType, input: string): DocumentValidation {
  const label = DOCUMENT_TYPES[type];
  const { rule, pattern, digitsOnly } = RULES[type];
  const value = normalizeDocument(type, input);
  if (value === '') {
    return { ok: false, error: `${label}: обязательное поле` };
  }
  if (!pattern.test(value)) {
    return { ok: false, error: `${label}: ${rule}${shapeHint(type, value, digitsOnly)}` };
  }
  if (!CHECKSUMS[type](value)) {
    return { ok: false, error: `${label}: неверная контрольная сумма` };
  }
  return { ok: true, value };
}

/**
 * Guesses the type of a bare value where the shape alone decides it. Series with letters fit PTS,
 * STS and driving licences alike, so they give null, as does anything unrecognised.
 */
export function detectDocumentType(input: string): DocumentType | null {
  const value = input.replace(DOCUMENT_SEPARATORS, '');
  if (!/^\d+$/.test(value)) {
    return null;
  }
  switch (value.length) {
    case 15:
      return isValidOgrnip(value) ? 'ogrnip' : 'epts';
    case 13:
      return 'ogrn';
    case 12:
      return 'inn';
    case 10:
      return isValidInn(value) ? 'inn' : 'passport_rf';
    default:
      return null;
  }
}

/** INN check digits (10 digits: one, 12 digits: two), as published by the Federal Tax Service. */
export function isValidInn(value: string): boolean {
  if (/^\d{10}$/.test(value)) {
    return innDigit(value, [2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(value.charAt(9));
  }
  if (/^\d{12}$/.test(value)) {
    return (
      innDigit(value, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(value.charAt(10)) &&
      innDigit(value, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(value.charAt(11))
    );
  }
  return false;
}

/** OGRN: the first 12 digits modulo 11, then modulo 10, give the 13th. */
export function isValidOgrn(value: string): boolean {
  return /^\d{13}$/.test(value) && moduloCheck(value, 11n);
}

/** OGRNIP: the first 14 digits modulo 13, then modulo 10, give the 15th. */
export function isValidOgrnip(value: string): boolean {
  return /^\d{15}$/.test(value) && moduloCheck(value, 13n);
}

const CHECKSUMS: Readonly<Record<DocumentType, (value: string) => boolean>> = {
  passport_rf: () => true,
  driving_licence: () => true,
  pts: () => true,
  epts: () => true,
  sts: () => true,
  inn: isValidInn,
  ogrn: isValidOgrn,
  ogrnip: isValidOgrnip,
};

function innDigit(value: string, weights: readonly number[]): number {
  let sum = 0;
  for (const [index, weight] of weights.entries()) {
    sum += weight * Number(value.charAt(index));
  }
  return (sum % 11) % 10;
}

// BigInt keeps the division exact without relying on 14 digits staying below 2^53.
function moduloCheck(value: string, modulus: bigint): boolean {
  const body = BigInt(value.slice(0, -1));
  return Number((body % modulus) % 10n) === Number(value.at(-1));
}

/** What was wrong with the shape, so the user need not count characters themselves. */
function shapeHint(type: DocumentType, value: string, digitsOnly: boolean): string {
  if (digitsOnly && !/^\d+$/.test(value)) {
    return ' (допускаются только цифры)';
  }
  if (!digitsOnly) {
    const expected = (RULES[type].groups ?? []).reduce((sum, length) => sum + length, 0);
    // With the right length the rule itself says what is wrong (a letter or a digit out of place).
    return value.length === expected
      ? ''
      : ` (указано ${value.length} ${plural(value.length, 'символ', 'символа', 'символов')})`;
  }
  const count = `указано ${value.length} ${plural(value.length, 'цифра', 'цифры', 'цифр')}`;
  if (type === 'ogrn' && value.length === 15) {
    return ` (${count} — так выглядит ОГРНИП)`;
  }
  if (type === 'ogrnip' && value.length === 13) {
    return ` (${count} — так выглядит ОГРН)`;
  }
  return ` (${count})`;
}
