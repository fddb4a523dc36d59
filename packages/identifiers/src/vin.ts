/**
 * VIN rules (ISO 3779 / ISO 3780), shared by the server and the web forms so that both
 * normalise the same way and say the same thing.
 */

import { VIN_MAKERS } from './wmi.ts';

export const VIN_LENGTH = 17;
export const VIN_FIELD_LABEL = 'VIN';

/** Latin and digits without I, O, Q: the ISO 3779 alphabet. */
const VIN_CHARS = /^[A-HJ-NPR-Z0-9]$/;

/**
 * Cyrillic letters that look like Latin ones and are typed by mistake on a Russian keyboard layout.
 * Cyrillic О is deliberately absent: O is not allowed in a VIN, so it must surface as an error
 * instead of silently becoming a different character.
 */
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  А: 'A',
  В: 'B',
  С: 'C',
  Е: 'E',
  Н: 'H',
  К: 'K',
  М: 'M',
  Р: 'P',
  Т: 'T',
  Х: 'X',
};

/** Spaces (including no-break and zero-width ones) and every kind of dash people paste. */
const VIN_SEPARATORS = /[\s\u200B-\u200D\u2060\uFEFF\-\u2010-\u2015\u2212]+/g;

/** ISO 3779 transliteration of letters to numbers for the check digit. */
const TRANSLITERATION: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};

const CHECK_DIGIT_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Position 10 codes, in order from 1980 (A) to 2009 (9); the sequence repeats every 30 years. */
const MODEL_YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';
const MODEL_YEAR_BASE = 1980;
const MODEL_YEAR_CYCLE = 30;

export type VinCheckDigit = {
  /** The character the ISO 3779 formula gives for position 9. */
  expected: string;
  /** The character actually at position 9. */
  actual: string;
  valid: boolean;
};

export type VinDecoded = {
  /** World manufacturer identifier: the first three characters. */
  wmi: string;
  /** Continent from the first character (ISO 3780), in Russian; null where none is assigned. */
  region: string | null;
  /** Country from the first two characters or from the maker table, in Russian. */
  country: string | null;
  /** Make and, where useful, the plant (for vehicles assembled in Russia); null when unknown. */
  manufacturer: string | null;
  /** The most recent candidate year not after next year; null when position 10 is not a year code. */
  modelYear: number | null;
  /** Every year position 10 can mean, oldest first (the code repeats every 30 years). */
  modelYearCandidates: number[];
  checkDigit: VinCheckDigit;
};

export type VinValidation =
  | { ok: true; value: string; warnings: string[]; decoded: VinDecoded }
  | { ok: false; error: string };

export type VinOptions = {
  /** Defaults to the current calendar year; tests pin it so model years stay stable. */
  currentYear?: number;
};

/** Trims, drops spaces and dashes, upper-cases and turns Cyrillic look-alikes into Latin letters. */
export function normalizeVin(input: string): string {
  const compact = input.replace(VIN_SEPARATORS, '').toUpperCase();
  let result = '';
  for (const char of compact) {
    result += CYRILLIC_TO_LATIN[char] ?? char;
  }
  return result;
}

/** ISO 3779 check digit ('0'–'9' or 'X') of a 17-character VIN in the VIN alphabet. */
export function computeVinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i++) {
    const char = vin.charAt(i);
    const value = /[0-9]/.test(char) ? Number(char) : (TRANSLITERATION[char] ?? 0);
    sum += value * (CHECK_DIGIT_WEIGHTS[i] ?? 0);
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** Years that a position-10 code can stand for, up to `latestYear`, oldest first. */
export function vinModelYearCandidates(code: string, latestYear: number): number[] {
  const index = MODEL_YEAR_CODES.indexOf(code);
  if (code.length !== 1 || index < 0) {
    return [];
  }
  const years: number[] = [];
  for (let year = MODEL_YEAR_BASE + index; year <= latestYear; year += MODEL_YEAR_CYCLE) {
    years.push(year);
  }
  return years;
}

/** Everything that can be read from a VIN already known to be valid (see `validateVin`). */
export function decodeVin(vin: string, options: VinOptions = {}): VinDecoded {
  const currentYear = options.currentYear ?? new Date().getFullYear();
  const wmi = vin.slice(0, 3);
  const maker = VIN_MAKERS[wmi];
  // Vehicles for the model year after the current one are sold from the summer before.
  const candidates = vinModelYearCandidates(vin.charAt(9), currentYear + 1);
  const expected = computeVinCheckDigit(vin);
  const actual = vin.charAt(8);
  return {
    wmi,
    region: vinRegion(vin.charAt(0)),
    country: maker?.country ?? vinCountry(vin.slice(0, 2)),
    manufacturer: maker?.name ?? null,
    modelYear: candidates.at(-1) ?? null,
    modelYearCandidates: candidates,
    checkDigit: { expected, actual, valid: expected === actual },
  };
}

/**
 * Validates a VIN as typed or pasted. A wrong check digit is only a warning: many vehicles made for
 * the Russian market carry a filler or a plant code in position 9.
 */
export function validateVin(input: string, options: VinOptions = {}): VinValidation {
  const value = normalizeVin(input);
  if (value === '') {
    return { ok: false, error: `${VIN_FIELD_LABEL}: обязательное поле` };
  }

  const chars = [...value];
  const forbidden: string[] = [];
  for (const [index, char] of chars.entries()) {
    // Cyrillic О is reported like Latin O: to the user they are the same letter.
    if (char === 'I' || char === 'O' || char === 'Q' || char === 'О') {
      forbidden.push(`${index + 1}: «${char}»`);
    } else if (!VIN_CHARS.test(char)) {
      return {
        ok: false,
        error: `${VIN_FIELD_LABEL}: допускаются только латинские буквы и цифры (позиция ${index + 1}: «${char}»)`,
      };
    }
  }
  if (forbidden.length > 0) {
    const where = forbidden.length === 1 ? 'позиция' : 'позиции';
    return {
      ok: false,
      error: `${VIN_FIELD_LABEL}: недопустимые символы I, O, Q (${where} ${forbidden.join(', ')})`,
    };
  }
  if (chars.length !== VIN_LENGTH) {
    return {
      ok: false,
      error: `${VIN_FIELD_LABEL}: должно быть ${VIN_LENGTH} символов, указано ${chars.length}`,
    };
  }

  const decoded = decodeVin(value, options);
  const warnings: string[] = [];
  if (!decoded.checkDigit.valid) {
    warnings.push(
      `${VIN_FIELD_LABEL}: контрольная цифра не совпадает (ожидалась ${decoded.checkDigit.expected}) — ` +
        'для автомобилей, выпущенных для рынка РФ, это допустимо',
    );
  }
  return { ok: true, value, warnings, decoded };
}

/** ISO 3780 continents by the first character. */
function vinRegion(first: string): string | null {
  if (/[A-H]/.test(first)) {
    return 'Африка';
  }
  if (/[J-R]/.test(first)) {
    return 'Азия';
  }
  if (/[S-Z]/.test(first)) {
    return 'Европа';
  }
  if (/[1-5]/.test(first)) {
    return 'Северная Америка';
  }
  if (/[67]/.test(first)) {
    return 'Океания';
  }
  if (/[89]/.test(first)) {
    return 'Южная Америка';
  }
  return null;
}

/** Order of the second character inside a country range (SAE/ISO 3780 allocation order). */
const RANGE_ORDER = 'ABCDEFGHJKLMNPRSTUVWXYZ1234567890';

/** [first character, second from, second to (inclusive, in RANGE_ORDER), country]. */
const COUNTRY_RANGES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['A', 'A', 'H', 'ЮАР'],
  ['J', 'A', '0', 'Япония'],
  ['K', 'L', 'R', 'Республика Корея'],
  ['L', 'A', '0', 'Китай'],
  ['M', 'A', 'E', 'Индия'],
  ['M', 'F', 'K', 'Индонезия'],
  ['M', 'L', 'R', 'Таиланд'],
  ['N', 'A', 'E', 'Иран'],
  ['N', 'L', 'R', 'Турция'],
  ['P', 'A', 'E', 'Филиппины'],
  ['P', 'L', 'R', 'Малайзия'],
  ['S', 'A', 'M', 'Великобритания'],
  ['S', 'N', 'T', 'Германия'],
  ['S', 'U', 'Z', 'Польша'],
  ['T', 'A', 'H', 'Швейцария'],
  ['T', 'J', 'P', 'Чехия'],
  ['T', 'R', 'V', 'Венгрия'],
  ['T', 'W', '1', 'Португалия'],
  ['U', 'H', 'M', 'Дания'],
  ['U', 'N', 'T', 'Ирландия'],
  ['U', 'U', 'Z', 'Румыния'],
  ['U', '5', '7', 'Словакия'],
  ['V', 'A', 'E', 'Австрия'],
  ['V', 'F', 'R', 'Франция'],
  ['V', 'S', 'W', 'Испания'],
  ['W', 'A', '0', 'Германия'],
  ['X', 'A', 'E', 'Болгария'],
  ['X', 'F', 'K', 'Греция'],
  ['X', 'L', 'R', 'Нидерланды'],
  // The former USSR block: mostly Russian plants, but also e.g. Uzbekistan (XWB).
  ['X', 'S', 'W', 'СССР / СНГ'],
  ['X', '3', '0', 'Россия'],
  ['Y', 'A', 'E', 'Бельгия'],
  ['Y', 'F', 'K', 'Финляндия'],
  ['Y', 'S', 'W', 'Швеция'],
  ['Y', 'X', '2', 'Норвегия'],
  ['Y', '3', '5', 'Беларусь'],
  ['Y', '6', '0', 'Украина'],
  ['Z', 'A', 'R', 'Италия'],
  ['Z', '6', '0', 'Россия'],
  ['1', 'A', '0', 'США'],
  ['2', 'A', '0', 'Канада'],
  ['3', 'A', 'W', 'Мексика'],
  ['4', 'A', '0', 'США'],
  ['5', 'A', '0', 'США'],
  ['6', 'A', 'W', 'Австралия'],
  ['7', 'A', 'E', 'Новая Зеландия'],
  ['8', 'A', 'E', 'Аргентина'],
  ['9', 'A', 'E', 'Бразилия'],
  ['9', '3', '9', 'Бразилия'],
];

function vinCountry(prefix: string): string | null {
  const first = prefix.charAt(0);
  const position = RANGE_ORDER.indexOf(prefix.charAt(1));
  if (position < 0) {
    return null;
  }
  for (const [rangeFirst, from, to, country] of COUNTRY_RANGES) {
    if (
      rangeFirst === first &&
      position >= RANGE_ORDER.indexOf(from) &&
      position <= RANGE_ORDER.indexOf(to)
    ) {
      return country;
    }
  }
  return null;
}
