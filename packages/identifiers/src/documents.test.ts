import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_NUMBER_LABELS,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  detectDocumentType,
  formatDocument,
  isDocumentType,
  isValidInn,
  isValidOgrn,
  isValidOgrnip,
  normalizeDocument,
  validateDocument,
} from './documents.ts';

describe('document types', () => {
  it('names the number field «Серия и номер» only for documents that have a series', () => {
    expect(DOCUMENT_NUMBER_LABELS).toEqual({
      passport_rf: 'Серия и номер',
      driving_licence: 'Серия и номер',
      pts: 'Серия и номер',
      epts: 'Номер ЭПТС',
      sts: 'Серия и номер',
      inn: 'Номер ИНН',
      ogrn: 'Номер ОГРН',
      ogrnip: 'Номер ОГРНИП',
    });
  });

  it('labels every type in Russian', () => {
    expect(DOCUMENT_TYPES).toEqual({
      passport_rf: 'Паспорт РФ',
      driving_licence: 'Водительское удостоверение',
      pts: 'ПТС',
      epts: 'ЭПТС',
      sts: 'СТС',
      inn: 'ИНН',
      ogrn: 'ОГРН',
      ogrnip: 'ОГРНИП',
    });
    expect(Object.keys(DOCUMENT_TYPES)).toEqual([...DOCUMENT_TYPE_CODES]);
  });

  it('recognises type codes', () => {
    expect(isDocumentType('pts')).toBe(true);
    expect(isDocumentType('passport')).toBe(false);
    expect(isDocumentType(42)).toBe(false);
  });
});

describe('passport_rf', () => {
  it.each(['45 06 123456', '4506123456', '4506 123456', ' 45-06 №123456 '])('accepts «%s»', (input) => {
    expect(validateDocument('passport_rf', input)).toEqual({ ok: true, value: '4506123456' });
  });

  it('formats for display', () => {
    expect(formatDocument('passport_rf', '4506123456')).toBe('45 06 123456');
  });

  it('names the field and the rule, with the digit count', () => {
    expect(validateDocument('passport_rf', '45 06 12345')).toEqual({
      ok: false,
      error: 'Паспорт РФ: серия — 4 цифры, номер — 6 цифр (указано 9 цифр)',
    });
    expect(validateDocument('passport_rf', '45 06 12345A')).toEqual({
      ok: false,
      error: 'Паспорт РФ: серия — 4 цифры, номер — 6 цифр (допускаются только цифры)',
    });
    expect(validateDocument('passport_rf', '  ')).toEqual({
      ok: false,
      error: 'Паспорт РФ: обязательное поле',
    });
  });
});

describe('driving_licence', () => {
  it('accepts the old series with Cyrillic letters and the new all-digit one', () => {
    expect(validateDocument('driving_licence', '77 АВ 123456')).toEqual({ ok: true, value: '77АВ123456' });
    expect(validateDocument('driving_licence', '99 12 345678')).toEqual({ ok: true, value: '9912345678' });
  });

  it('maps Latin look-alikes typed on the wrong layout to Cyrillic', () => {
    expect(normalizeDocument('driving_licence', '77 ab 123456')).toBe('77АВ123456');
  });

  it('formats and rejects', () => {
    expect(formatDocument('driving_licence', '77АВ123456')).toBe('77 АВ 123456');
    expect(validateDocument('driving_licence', '77 АВ 12345')).toEqual({
      ok: false,
      error:
        'Водительское удостоверение: серия — 2 цифры и 2 цифры или русские буквы, номер — 6 цифр (указано 9 символов)',
    });
  });
});

describe('pts', () => {
  it('stores the series in upper-case Cyrillic', () => {
    expect(validateDocument('pts', '78 УС 123456')).toEqual({ ok: true, value: '78УС123456' });
    expect(validateDocument('pts', '78 ус 123456')).toEqual({ ok: true, value: '78УС123456' });
    // Latin "YC" looks like Cyrillic "УС".
    expect(validateDocument('pts', '78 yc 123456')).toEqual({ ok: true, value: '78УС123456' });
    expect(formatDocument('pts', '78УС123456')).toBe('78 УС 123456');
  });

  it('requires letters in the series and rejects Latin letters without a Cyrillic twin', () => {
    const error = 'ПТС: серия — 2 цифры и 2 русские буквы, номер — 6 цифр';
    expect(validateDocument('pts', '78 12 123456')).toEqual({ ok: false, error });
    expect(validateDocument('pts', '78 DZ 123456')).toEqual({ ok: false, error });
    expect(validateDocument('pts', '78 УС 1234567')).toEqual({
      ok: false,
      error: `${error} (указано 11 символов)`,
    });
  });
});

describe('epts and sts', () => {
  it('accepts a 15-digit EPTS number and leaves it as is for display', () => {
    expect(validateDocument('epts', '164301001234567')).toEqual({ ok: true, value: '164301001234567' });
    expect(formatDocument('epts', '164301001234567')).toBe('164301001234567');
    expect(validateDocument('epts', '16430100123456')).toEqual({
      ok: false,
      error: 'ЭПТС: номер — 15 цифр (указано 14 цифр)',
    });
  });

  it('accepts an STS series of letters or digits', () => {
    expect(validateDocument('sts', '77 УМ 123456')).toEqual({ ok: true, value: '77УМ123456' });
    expect(validateDocument('sts', '99 21 123456')).toEqual({ ok: true, value: '9921123456' });
    expect(formatDocument('sts', '9921123456')).toBe('99 21 123456');
    expect(validateDocument('sts', '77 У! 123456')).toMatchObject({
      ok: false,
      error: 'СТС: серия — 2 цифры и 2 русские буквы или цифры, номер — 6 цифр',
    });
  });
});

describe('inn', () => {
  it.each([
    ['7707083893', 'Сбербанк'],
    ['7728168971', 'Альфа-Банк'],
    ['7736050003', 'Газпром'],
    ['500100732259', 'физическое лицо'],
  ])('accepts %s (%s)', (inn) => {
    expect(isValidInn(inn)).toBe(true);
    expect(validateDocument('inn', inn)).toEqual({ ok: true, value: inn });
  });

  it('rejects a wrong check digit in either position of a 12-digit INN', () => {
    expect(validateDocument('inn', '7707083894')).toEqual({
      ok: false,
      error: 'ИНН: неверная контрольная сумма',
    });
    expect(isValidInn('500100732269')).toBe(false);
    expect(isValidInn('500100732258')).toBe(false);
  });

  it('rejects other lengths with the rule', () => {
    expect(validateDocument('inn', '77070838931')).toEqual({
      ok: false,
      error: 'ИНН: 10 цифр для организации или 12 цифр для физического лица (указано 11 цифр)',
    });
    expect(validateDocument('inn', '')).toEqual({ ok: false, error: 'ИНН: обязательное поле' });
  });
});

describe('ogrn and ogrnip', () => {
  it('accepts real registration numbers', () => {
    expect(validateDocument('ogrn', '1027700132195')).toEqual({ ok: true, value: '1027700132195' });
    expect(isValidOgrn('1027700070518')).toBe(true);
    expect(validateDocument('ogrnip', '304500116000157')).toEqual({ ok: true, value: '304500116000157' });
  });

  it('rejects a wrong check digit', () => {
    expect(validateDocument('ogrn', '1027700132196')).toEqual({
      ok: false,
      error: 'ОГРН: неверная контрольная сумма',
    });
    expect(validateDocument('ogrnip', '304500116000158')).toEqual({
      ok: false,
      error: 'ОГРНИП: неверная контрольная сумма',
    });
    expect(isValidOgrnip('1027700132195')).toBe(false);
  });

  it('points at the other register when the length fits it', () => {
    expect(validateDocument('ogrn', '304500116000157')).toEqual({
      ok: false,
      error: 'ОГРН: 13 цифр (указано 15 цифр — так выглядит ОГРНИП)',
    });
    expect(validateDocument('ogrnip', '1027700132195')).toEqual({
      ok: false,
      error: 'ОГРНИП: 15 цифр (указано 13 цифр — так выглядит ОГРН)',
    });
  });

  it('uses the remainder 10 → check digit 0 rule', () => {
    // Find a 12-digit body whose remainder mod 11 is 10, then check that 0 is its valid check digit.
    let body = 102770013219n;
    while (body % 11n !== 10n) {
      body++;
    }
    expect(isValidOgrn(`${body}0`)).toBe(true);
    expect(isValidOgrn(`${body}1`)).toBe(false);
  });
});

describe('detectDocumentType', () => {
  it.each([
    ['304500116000157', 'ogrnip'],
    ['164301001234567', 'epts'],
    ['1027700132195', 'ogrn'],
    ['500100732259', 'inn'],
    ['7707083893', 'inn'],
    ['77 07 083893', 'inn'],
    ['4506123456', 'passport_rf'],
    ['45 06 123456', 'passport_rf'],
  ])('%s → %s', (input, type) => {
    expect(detectDocumentType(input)).toBe(type);
  });

  it('gives up when the value is ambiguous or unknown', () => {
    expect(detectDocumentType('78УС123456')).toBeNull();
    expect(detectDocumentType('123')).toBeNull();
    expect(detectDocumentType('')).toBeNull();
  });
});
