import { z } from 'zod';
import { defineJobMessage } from './job-definition.ts';

/**
 * «Check these items again now»: sent by the pledges module when a package is registered (its
 * vehicles' VINs), handled by the checks module with a run over those items only. It lives here,
 * between the two, because neither module may import the other.
 */
export const recheckItemsMessage = defineJobMessage({
  name: 'checks.recheck-items',
  payload: z.object({
    organisationId: z.uuid(),
    reason: z.literal('pledge_registered'),
    identifiers: z.array(z.string().min(1).max(100)).min(1).max(100_000),
  }),
});
