import { errorResponseSchema } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { parseErrorResponse } from './error-response';

const bodies: unknown[] = [
  { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Неверный e-mail или пароль' },
  {
    statusCode: 422,
    code: 'VALIDATION_FAILED',
    message: 'Проверьте поля',
    fieldErrors: [{ field: 'new_password', message: 'Слишком короткий', extra: 1 }],
  },
  { statusCode: 500, code: 'X', message: '', fieldErrors: [], extra: true },
  { statusCode: 422.5, code: 'X', message: 'm' },
  { statusCode: '422', code: 'X', message: 'm' },
  { statusCode: 422, code: 7, message: 'm' },
  { statusCode: 422, code: 'X' },
  { statusCode: 422, code: 'X', message: 'm', fieldErrors: null },
  { statusCode: 422, code: 'X', message: 'm', fieldErrors: [{ field: 'a' }] },
  { statusCode: 422, code: 'X', message: 'm', fieldErrors: {} },
  [{ statusCode: 422, code: 'X', message: 'm' }],
  null,
  'Bad Gateway',
  42,
];

describe('parseErrorResponse', () => {
  it.each(bodies.map((body) => [JSON.stringify(body), body]))(
    'agrees with the contract schema: %s',
    (_, body) => {
      const parsed = errorResponseSchema.safeParse(body);
      expect(parseErrorResponse(body)).toEqual(parsed.success ? parsed.data : null);
    },
  );

  it('keeps the server message and field errors', () => {
    expect(
      parseErrorResponse({
        statusCode: 422,
        code: 'VALIDATION_FAILED',
        message: 'Проверьте поля',
        fieldErrors: [{ field: 'email', message: 'Неверный e-mail' }],
      }),
    ).toEqual({
      statusCode: 422,
      code: 'VALIDATION_FAILED',
      message: 'Проверьте поля',
      fieldErrors: [{ field: 'email', message: 'Неверный e-mail' }],
    });
  });
});
