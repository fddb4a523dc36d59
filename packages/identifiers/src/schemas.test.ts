import { describe, expect, it } from 'vitest';
import { documentInputSchema, documentSchema, documentTypeSchema, vinSchema } from './schemas.ts';

describe('vinSchema', () => {
  it('outputs the normalised VIN and lets check-digit warnings through', () => {
    expect(vinSchema.parse(' wvwzzz1jzxw000001 ')).toBe('WVWZZZ1JZXW000001');
  });

  it('reports the Russian message of the rule', () => {
    const result = vinSchema.safeParse('XTA2109');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'VIN: должно быть 17 символов, указано 7',
    ]);
    expect(vinSchema.safeParse(undefined).error?.issues[0]?.message).toBe('VIN: обязательное поле');
  });
});

describe('documentSchema', () => {
  it('outputs the normal form of the chosen type', () => {
    expect(documentSchema('pts').parse('78 yc 123456')).toBe('78УС123456');
    expect(documentSchema('passport_rf').parse('45 06 123456')).toBe('4506123456');
  });

  it('reports the message naming the field', () => {
    expect(documentSchema('inn').safeParse('7707083894').error?.issues[0]?.message).toBe(
      'ИНН: неверная контрольная сумма',
    );
  });
});

describe('documentInputSchema', () => {
  it('validates the number against the chosen type', () => {
    expect(documentInputSchema.parse({ type: 'ogrn', number: '1027700132195' })).toEqual({
      type: 'ogrn',
      number: '1027700132195',
    });
  });

  it('puts the error on the number field', () => {
    const issues = documentInputSchema.safeParse({ type: 'ogrnip', number: '304500116000158' }).error?.issues;
    expect(issues?.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['number'], message: 'ОГРНИП: неверная контрольная сумма' },
    ]);
  });

  it('rejects an unknown type', () => {
    expect(documentTypeSchema.safeParse('snils').error?.issues[0]?.message).toBe(
      'Тип документа: выберите значение из списка',
    );
  });
});
