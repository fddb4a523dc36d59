import type { Finding } from '@pledgewatch/contract';
import { z } from 'zod';
import { finalizeFindings, pledgeFinding, pledgeStatusOf, requireDate } from '../provider-findings.ts';
import { parseShape } from '../provider-http.ts';

/**
 * parser-api.com's pledge registry answer → `pledges` findings. The one place its field mapping lives
 * (docs/providers.md): confirmed from the vendor's published example (providers.md §1.2, confidence
 * high); a recorded real answer should still confirm the hidden-party flags and `history[].number`.
 *
 * | parser-api field                 | finding field                                     |
 * |----------------------------------|---------------------------------------------------|
 * | records[].number                 | key and notice_number (creation number, «/N» cut) |
 * | records[].register_date          | registered_at                                     |
 * | records[].history[].type         | status: Исключение → excluded, Изменение → changed, else active |
 * | records[].pledgees[].name        | pledgee («сведения не публикуются» when pledgee_hidden) |
 * | records[].pledgors[].name        | pledgor (the same when pledgor_hidden)            |
 */
const party = z.object({ name: z.string().optional(), type: z.string().optional() });
const flag = z.union([z.number(), z.boolean(), z.string()]).optional();
const recordSchema = z.object({
  number: z.string().min(1),
  register_date: z.string(),
  pledgor_hidden: flag,
  pledgee_hidden: flag,
  objects: z.array(z.string()).optional(),
  pledgors: z.array(party).default([]),
  pledgees: z.array(party).default([]),
  history: z.array(z.object({ date: z.string().optional(), type: z.string().optional() })).default([]),
});
export const parserApiAnswerSchema = z.object({
  success: z.union([z.number(), z.boolean()]),
  records: z.array(z.unknown()).optional(),
  error: z.unknown().optional(),
  message: z.unknown().optional(),
});

const truthy = (value: unknown) => value === 1 || value === true || value === '1';

export function parserApiPledges(records: unknown[]): Finding[] {
  return finalizeFindings(
    records.map((raw) => {
      const record = parseShape(recordSchema, raw);
      return pledgeFinding({
        number: record.number,
        status: pledgeStatusOf(record.history.map((entry) => entry.type)),
        registeredAt: requireDate(record.register_date, 'register_date'),
        pledgees: record.pledgees.map((entry) => entry.name),
        pledgors: record.pledgors.map((entry) => entry.name),
        pledgeeHidden: truthy(record.pledgee_hidden),
        pledgorHidden: truthy(record.pledgor_hidden),
      });
    }),
    'notice_number',
  );
}
