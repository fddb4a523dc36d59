import { describe, expect, it } from 'vitest';
import { resetPasswordConfirmResolver } from './form-schemas';

const resolve = (values: { new_password: string; confirm_password: string }) =>
  resetPasswordConfirmResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false } as never);

describe('new-password form', () => {
  it('says «Обязательное поле» for empty fields, not a length or mismatch message', async () => {
    const { errors } = await resolve({ new_password: '', confirm_password: '' });
    expect(errors.new_password?.message).toBe('Обязательное поле');
    expect(errors.confirm_password?.message).toBe('Обязательное поле');
    const repeatMissing = await resolve({ new_password: 'three random words', confirm_password: '' });
    expect(repeatMissing.errors.new_password).toBeUndefined();
    expect(repeatMissing.errors.confirm_password?.message).toBe('Обязательное поле');
  });

  it('still names the length rule and the mismatch once something is typed', async () => {
    const { errors } = await resolve({ new_password: 'short', confirm_password: 'other' });
    expect(errors.new_password?.message).toBe('Минимальная длина — 12 симв.');
    const mismatch = await resolve({
      new_password: 'three random words',
      confirm_password: 'three random word',
    });
    expect(mismatch.errors.confirm_password?.message).toBe('Пароли не совпадают');
  });
});
