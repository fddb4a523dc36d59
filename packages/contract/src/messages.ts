import { z } from 'zod';

/**
 * The seven default field messages of the seed spec (section 5), shared by the server's
 * validation errors and the web forms so that both sides say the same thing.
 */
export const VALIDATION_MESSAGES = {
  required: 'Обязательное поле',
  email: 'Введите корректный адрес электронной почты',
  numeric: 'Допускаются только цифры',
  integer: 'Допускаются только целые числа',
  maxLength: (max: number) => `Максимальная длина — ${max} симв.`,
  minLength: (min: number) => `Минимальная длина — ${min} симв.`,
  format: 'Неверный формат',
} as const;

// zod's own messages (a wrong JSON type, a missing object, an unknown enum value) in Russian too,
// for every schema the server and the web app check; the schemas' own messages still win.
z.config(z.locales.ru());
