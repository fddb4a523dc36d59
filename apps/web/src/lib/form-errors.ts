import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { getErrorMessage, isApiError } from './api-client';

/**
 * Puts the server's 422 field errors on the matching inputs and returns what is left for a form-level
 * alert (the message itself when no field matched).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string | null {
  if (!isApiError(error)) {
    return getErrorMessage(error);
  }
  let matched = 0;
  const unmatched: string[] = [];
  for (const fieldError of error.fieldErrors) {
    const field = fields.find((name) => name === fieldError.field);
    if (field) {
      setError(field, { type: 'server', message: fieldError.message });
      matched += 1;
    } else {
      unmatched.push(fieldError.message);
    }
  }
  if (unmatched.length > 0) {
    return unmatched.join(' ');
  }
  return matched > 0 ? null : error.message;
}
