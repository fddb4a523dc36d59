import { findingSchema } from '@pledgewatch/contract';
import { z } from 'zod';
import type { Provider } from '../provider.ts';
import { failForStatus, parseShape, readJson } from '../provider-http.ts';

const answerSchema = z.object({ findings: z.array(findingSchema) });

/**
 * Our own protocol, for a bank's in-house service: `GET {url}/check?kind=vin|document&identifier=…
 * [&documentType=…]` with `Authorization: Bearer {token}` answers `{"findings": [{key, payload}]}`
 * already in the dataset layouts' shape (docs/datasets.md).
 */
export const jsonServiceProvider: Provider = {
  name: 'json-service',
  async fetch(ctx, item) {
    const answer = await ctx.send({
      path: '/check',
      query: {
        kind: item.kind,
        identifier: item.identifier,
        ...(item.documentType ? { documentType: item.documentType } : {}),
      },
      headers: ctx.config.token ? { authorization: `Bearer ${ctx.config.token}` } : {},
    });
    failForStatus(answer);
    const { findings } = parseShape(answerSchema, readJson(answer));
    return { findings: findings.toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
  },
};
