import { z } from 'zod';
import type { EndpointDefinition } from './endpoint.ts';
import { checkEndpoints } from './endpoints/checks.ts';
import { monitoringEndpoints } from './endpoints/monitoring.ts';
import { notificationEndpoints } from './endpoints/notifications.ts';
import { pledgeEndpoints } from './endpoints/pledges.ts';
import { uploadEndpoints } from './endpoints/uploads.ts';

/** Longest `Idempotency-Key` accepted; a longer one is a 422. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

/**
 * The POSTs that create something and accept `Idempotency-Key`: the same key with the same request
 * within 24 hours answers the first answer again and creates nothing (docs/integration.md).
 */
export const IDEMPOTENT_ENDPOINTS: readonly EndpointDefinition[] = [
  monitoringEndpoints.addVins,
  monitoringEndpoints.addDocuments,
  uploadEndpoints.create,
  pledgeEndpoints.uploadEvents,
  pledgeEndpoints.createEvent,
  pledgeEndpoints.createPackage,
  checkEndpoints.oneTimeCheck,
  checkEndpoints.startRun,
  notificationEndpoints.createRule,
];

export const idempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1, { error: 'Ключ идемпотентности не может быть пустым' })
    .max(IDEMPOTENCY_KEY_MAX_LENGTH, {
      error: `Ключ идемпотентности длиннее ${IDEMPOTENCY_KEY_MAX_LENGTH} символов`,
    })
    .optional()
    .describe(
      'Повтор запроса с тем же ключом и телом в течение 24 часов вернёт первый ответ и ничего не создаст',
    ),
});
