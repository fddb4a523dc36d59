/**
 * Zod wrappers around the identifier rules, for react-hook-form resolvers and Fastify route schemas:
 * they accept the text as typed, report the same Russian message, and output the normal form.
 */

import { z } from 'zod';
import { DOCUMENT_TYPE_CODES, DOCUMENT_TYPES, type DocumentType, validateDocument } from './documents.ts';
import { VIN_FIELD_LABEL, validateVin } from './vin.ts';

/** A VIN as typed → the normalised VIN; check-digit warnings do not fail the field. */
export const vinSchema = z
  .string({ error: `${VIN_FIELD_LABEL}: обязательное поле` })
  .transform((input, ctx) => {
    const result = validateVin(input);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    }
    return result.value;
  });

/** A document number of a known type as typed → its normal form. */
export const documentSchema = (type: DocumentType) =>
  z.string({ error: `${DOCUMENT_TYPES[type]}: обязательное поле` }).transform((input, ctx) => {
    const result = validateDocument(type, input);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    }
    return result.value;
  });

export const documentTypeSchema = z
  .enum(DOCUMENT_TYPE_CODES, { error: 'Тип документа: выберите значение из списка' })
  .describe('Тип документа: passport_rf, driving_licence, pts, epts, sts, inn, ogrn, ogrnip');

/**
 * A form or body where the user picks the type and types the number; the error lands on `number`
 * so a form shows it under the number field.
 */
export const documentInputSchema = z
  .object({ type: documentTypeSchema, number: z.string({ error: 'Номер документа: обязательное поле' }) })
  .transform((input, ctx) => {
    const result = validateDocument(input.type, input.number);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error, path: ['number'] });
      return z.NEVER;
    }
    return { type: input.type, number: result.value };
  });
