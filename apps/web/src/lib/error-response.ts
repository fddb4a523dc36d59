import type { ErrorResponse } from '@pledgewatch/contract';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFieldError = (value: unknown): value is { field: string; message: string } =>
  isRecord(value) && typeof value.field === 'string' && typeof value.message === 'string';

/**
 * The contract's `errorResponseSchema`, checked by hand: every request goes through the API client,
 * and zod there would put the whole validation library on the sign-in page's first load.
 * error-response.test.ts keeps it in step with the schema.
 */
export function parseErrorResponse(body: unknown): ErrorResponse | null {
  if (
    !isRecord(body) ||
    !Number.isInteger(body.statusCode) ||
    typeof body.code !== 'string' ||
    typeof body.message !== 'string'
  ) {
    return null;
  }
  const { fieldErrors } = body;
  if (fieldErrors !== undefined && !(Array.isArray(fieldErrors) && fieldErrors.every(isFieldError))) {
    return null;
  }
  return {
    statusCode: body.statusCode as number,
    code: body.code,
    message: body.message,
    ...(fieldErrors === undefined
      ? {}
      : { fieldErrors: fieldErrors.map(({ field, message }) => ({ field, message })) }),
  };
}
