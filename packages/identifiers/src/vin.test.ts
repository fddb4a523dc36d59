import { describe, expect, it } from 'vitest';
import { computeVinCheckDigit, decodeVin, normalizeVin, validateVin, vinModelYearCandidates } from './vin.ts';
import { VIN_MAKERS } from './wmi.ts';

const YEAR = { currentYear: 2026 };

describe('normalizeVin', () => {
  it('trims, drops spaces and dashes and upper-cases', () => {
    expect(normalizeVin('  wvw zzz-1jz–xw 000001 \t')).toBe('WVWZZZ1JZXW000001');
  });

  it('turns Cyrillic look-alikes, upper and lower case, into Latin letters', () => {
    // "ХТА" and "в" below are Cyrillic.
    expect(normalizeVin('ХТА21099в0Y276543')).toBe('XTA21099B0Y276543');
    expect(normalizeVin('авсенкмртх')).toBe('ABCEHKMPTX');
  });

  it('keeps Cyrillic О so that validation can report it', () => {
    expect(normalizeVin('xta2109о')).toBe('XTA2109О');
  });
});

describe('computeVinCheckDigit', () => {
  it('gives X for the ISO 3779 example', () => {
    expect(computeVinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
  });

  it('gives a digit for a European VIN with a filler in position 9', () => {
    expect(computeVinCheckDigit('WVWZZZ1JZXW000001')).toBe('0');
  });
});

describe('validateVin', () => {
  it('accepts the ISO 3779 example without warnings and decodes it', () => {
    const result = validateVin('1M8GDM9AXKP042788', YEAR);
    expect(result).toEqual({
      ok: true,
      value: '1M8GDM9AXKP042788',
      warnings: [],
      decoded: {
        wmi: '1M8',
        region: 'Северная Америка',
        country: 'США',
        manufacturer: null,
        modelYear: 2019,
        modelYearCandidates: [1989, 2019],
        checkDigit: { expected: 'X', actual: 'X', valid: true },
      },
    });
  });

  it('accepts a check-digit mismatch with a warning, not an error', () => {
    const result = validateVin('WVWZZZ1JZXW000001', YEAR);
    expect(result.ok).toBe(true);
    if (!result.ok) {
      return;
    }
    expect(result.warnings).toEqual([
      'VIN: контрольная цифра не совпадает (ожидалась 0) — для автомобилей, выпущенных для рынка РФ, это допустимо',
    ]);
    expect(result.decoded.manufacturer).toBe('Volkswagen');
    expect(result.decoded.country).toBe('Германия');
    expect(result.decoded.checkDigit).toEqual({ expected: '0', actual: 'Z', valid: false });
    expect(result.decoded.modelYear).toBe(1999);
  });

  it('accepts lower case with Cyrillic look-alikes and spaces, returning the normal form', () => {
    const result = validateVin(' хта 21099 0y2765432 ', YEAR);
    expect(result.ok && result.value).toBe('XTA210990Y2765432');
  });

  it('decodes a LADA as made in Russia even though X is a European first character', () => {
    const result = validateVin('XTA210990Y2765432', YEAR);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.decoded).toMatchObject({
        wmi: 'XTA',
        region: 'Европа',
        country: 'Россия',
        manufacturer: 'LADA (АвтоВАЗ)',
        modelYear: 2000,
      });
    }
  });

  it.each([
    ['Z94CT41DBER123456', 'Hyundai / Kia (Хендэ Мотор Мануфактуринг Рус)', 'Россия'],
    ['X7LLSRB2HBH123456', 'Renault (Рено Россия)', 'Россия'],
    ['X4XKS69430C123456', 'BMW (Автотор)', 'Россия'],
    ['LVVDB11B5ED123456', 'Chery', 'Китай'],
    ['TMAH381AAKJ123456', 'Hyundai', 'Чехия'],
    ['SJNFAAJ11U1123456', 'Nissan', 'Великобритания'],
  ])('decodes the maker of %s', (vin, manufacturer, country) => {
    const result = validateVin(vin, YEAR);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.decoded.manufacturer).toBe(manufacturer);
      expect(result.decoded.country).toBe(country);
    }
  });

  it('falls back to the country range for makers outside the table', () => {
    // XZ… and Z9… are Russian ranges; ZF… is Italian; 9B… Brazilian.
    expect(decodeVin('X3Z00000000000000', YEAR).country).toBe('Россия');
    expect(decodeVin('Z9Z00000000000000', YEAR).country).toBe('Россия');
    expect(decodeVin('ZFZ00000000000000', YEAR).country).toBe('Италия');
    expect(decodeVin('9BZ00000000000000', YEAR)).toMatchObject({
      region: 'Южная Америка',
      country: 'Бразилия',
      manufacturer: null,
    });
    expect(decodeVin('6AZ00000000000000', YEAR).region).toBe('Океания');
    expect(decodeVin('AAZ00000000000000', YEAR).region).toBe('Африка');
    expect(decodeVin('0AZ00000000000000', YEAR)).toMatchObject({ region: null, country: null });
  });

  it('reports the wrong length with the count', () => {
    expect(validateVin('XTA2109900Y27654', YEAR)).toEqual({
      ok: false,
      error: 'VIN: должно быть 17 символов, указано 16',
    });
    expect(validateVin('XTA210990Y27654321', YEAR)).toEqual({
      ok: false,
      error: 'VIN: должно быть 17 символов, указано 18',
    });
  });

  it('reports I, O and Q with their positions', () => {
    expect(validateVin('XTA2O0990Y2765432', YEAR)).toEqual({
      ok: false,
      error: 'VIN: недопустимые символы I, O, Q (позиция 5: «O»)',
    });
    expect(validateVin('XTAI10990Y276543Q', YEAR)).toEqual({
      ok: false,
      error: 'VIN: недопустимые символы I, O, Q (позиции 4: «I», 17: «Q»)',
    });
  });

  it('reports Cyrillic О as a forbidden O rather than mapping it', () => {
    const result = validateVin('XTA21099оY2765432', YEAR);
    expect(result).toEqual({ ok: false, error: 'VIN: недопустимые символы I, O, Q (позиция 9: «О»)' });
  });

  it('rejects other non-Latin characters and punctuation', () => {
    expect(validateVin('XTA21099ЖY2765432', YEAR)).toEqual({
      ok: false,
      error: 'VIN: допускаются только латинские буквы и цифры (позиция 9: «Ж»)',
    });
    expect(validateVin('XTA21099/Y2765432', YEAR)).toMatchObject({
      ok: false,
      error: expect.stringContaining('VIN: допускаются только латинские буквы и цифры'),
    });
  });

  it('does not guess Cyrillic У, which is not on the look-alike list', () => {
    expect(validateVin('XTA210990У2765432', YEAR)).toEqual({
      ok: false,
      error: 'VIN: допускаются только латинские буквы и цифры (позиция 10: «У»)',
    });
  });

  it('rejects empty and blank input', () => {
    expect(validateVin('', YEAR)).toEqual({ ok: false, error: 'VIN: обязательное поле' });
    expect(validateVin('  -  ', YEAR)).toEqual({ ok: false, error: 'VIN: обязательное поле' });
  });
});

describe('model year', () => {
  it('lists every 30-year candidate up to the latest year', () => {
    expect(vinModelYearCandidates('A', 2027)).toEqual([1980, 2010]);
    expect(vinModelYearCandidates('Y', 2027)).toEqual([2000]);
    expect(vinModelYearCandidates('1', 2032)).toEqual([2001, 2031]);
    expect(vinModelYearCandidates('9', 2027)).toEqual([2009]);
  });

  it('allows next year (cars of the next model year go on sale early)', () => {
    // V is 1997 and 2027.
    expect(decodeVin('XTA21099XV2765432', { currentYear: 2026 }).modelYear).toBe(2027);
    expect(decodeVin('XTA21099XV2765432', { currentYear: 2025 }).modelYear).toBe(1997);
  });

  it('has no year for codes outside the table (0, U, Z)', () => {
    for (const code of ['0', 'U', 'Z']) {
      const decoded = decodeVin(`XTA210990${code}2765432`, YEAR);
      expect(decoded.modelYear).toBeNull();
      expect(decoded.modelYearCandidates).toEqual([]);
    }
  });
});

describe('maker table', () => {
  it('holds only well-formed WMIs with a maker and a country', () => {
    const entries = Object.entries(VIN_MAKERS);
    expect(entries.length).toBeGreaterThanOrEqual(60);
    for (const [wmi, maker] of entries) {
      expect(wmi).toMatch(/^[A-HJ-NPR-Z0-9]{3}$/);
      expect(maker.name).not.toBe('');
      expect(maker.country).not.toBe('');
    }
  });
});
