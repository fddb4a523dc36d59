import type { Finding, SourceType } from '@pledgewatch/contract';
import { z } from 'zod';
import {
  accidentFinding,
  finalizeFindings,
  OWNER_TYPES,
  ownershipFinding,
  pledgeFinding,
  pledgeKey,
  pledgeStatusOf,
  requireDate,
  restrictionFinding,
  toIsoDate,
  wantedFinding,
} from '../provider-findings.ts';
import { parseShape } from '../provider-http.ts';

/**
 * An Avtocod / Spectrumdata report's content → findings of five source types: the one place its
 * mapping lives (docs/providers.md). Section and field names are from the vendor's spec repository
 * (avtocod/specs `reports/default/examples/full.json`, high); which report source (`state.sources[]._id`)
 * feeds which section is read from the SDK's stub (high for pledge, gibdd.*), `gibdd.dtp` for accidents.
 */
export const REPORT_SOURCES: Readonly<Partial<Record<SourceType, string>>> = {
  pledges: 'pledge',
  restrictions: 'gibdd.restrict',
  wanted: 'gibdd.wanted',
  registration: 'gibdd.history',
  accidents: 'gibdd.dtp',
};
export const AVTOCOD_TYPES = Object.keys(REPORT_SOURCES) as SourceType[];

const text = z.string().nullish();
const party = z.object({ name: text, type: text }).loose();
const items = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item).default([]) }).loose();

const pledgesSchema = items(
  z
    .object({
      number: z.string().min(1),
      date: z.object({ event: z.string() }).loose(),
      type: text,
      in_pledge: z.boolean().nullish(),
      pledgors: z.array(party).default([]),
      pledgees: z.array(party).default([]),
    })
    .loose(),
);

/** Later notices of a pledge (change, exclusion) come as items of their own: one finding per pledge. */
function pledgeFindings(section: unknown): Finding[] {
  const groups = new Map<string, z.infer<typeof pledgesSchema>['items']>();
  for (const item of parseShape(pledgesSchema, section).items) {
    const key = pledgeKey(item.number);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return finalizeFindings(
    [...groups].map(([number, notices]) => {
      const dated = notices
        .map((notice) => ({ notice, date: requireDate(notice.date.event, 'pledges.items.date.event') }))
        .toSorted((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const creation = dated.find(({ notice }) => /возникн/i.test(notice.type ?? '')) ?? dated[0]!;
      const latest = dated.at(-1)!.notice;
      const status =
        latest.in_pledge === false ? 'excluded' : pledgeStatusOf(notices.map((notice) => notice.type));
      return pledgeFinding({
        number,
        status,
        registeredAt: creation.date,
        pledgors: notices.flatMap((notice) => notice.pledgors.map((p) => p.name)),
        pledgees: notices.flatMap((notice) => notice.pledgees.map((p) => p.name)),
      });
    }),
    'notice_number',
  );
}

const restrictionsSchema = z
  .object({
    registration_actions: items(
      z
        .object({
          date: z.object({ start: text, added: text }).loose(),
          initiator: z
            .object({ name: text, region: z.object({ name: text }).loose().nullish() })
            .loose()
            .nullish(),
          restrict: z.object({ type: z.string().min(1), reason: text }).loose(),
        })
        .loose(),
    ).default({ items: [] }),
  })
  .loose();

function restrictionFindings(section: unknown): Finding[] {
  return finalizeFindings(
    parseShape(restrictionsSchema, section).registration_actions.items.map((item) =>
      restrictionFinding({
        imposedAt: requireDate(item.date.start ?? item.date.added, 'restrictions.date.start'),
        kind: item.restrict.type,
        imposedBy: item.initiator?.name,
        basis: item.restrict.reason,
        region: item.initiator?.region?.name,
      }),
    ),
    'record_id',
  );
}

const stealingsSchema = items(
  z
    .object({
      date: z.object({ stealing: z.string() }).loose(),
      geo: z.object({ region: text }).loose().nullish(),
    })
    .loose(),
);

function wantedFindings(section: unknown): Finding[] {
  return finalizeFindings(
    parseShape(stealingsSchema, section).items.map((item) =>
      wantedFinding({
        since: requireDate(item.date.stealing, 'stealings.date.stealing'),
        region: item.geo?.region,
      }),
    ),
    'record_id',
  );
}

const accidentsSchema = z
  .object({
    history: items(
      z
        .object({
          number: z.union([z.string(), z.number()]).transform(String),
          accident: z.object({ date: z.string() }).loose(),
          type: text,
          state: text,
          geo: z.object({ region: text }).loose().nullish(),
        })
        .loose(),
    ).default({ items: [] }),
  })
  .loose();

function accidentFindings(section: unknown): Finding[] {
  return finalizeFindings(
    parseShape(accidentsSchema, section).history.items.map((item) =>
      accidentFinding({
        number: item.number,
        date: requireDate(item.accident.date, 'accidents.accident.date'),
        region: item.geo?.region,
        kind: item.type,
        damage: item.state,
      }),
    ),
    'record_id',
  );
}

const ownershipSchema = z
  .object({
    history: items(
      z
        .object({
          date: z.object({ start: z.string(), end: text }).loose(),
          owner: z.object({ type: text }).loose().nullish(),
          last_operation: z.object({ description: text }).loose().nullish(),
        })
        .loose(),
    ).default({ items: [] }),
  })
  .loose();

function registrationFindings(section: unknown): Finding[] {
  return finalizeFindings(
    parseShape(ownershipSchema, section).history.items.map((item) =>
      ownershipFinding({
        from: requireDate(item.date.start, 'ownership.date.start'),
        to: toIsoDate(item.date.end),
        operation: item.last_operation?.description,
        ownerType: OWNER_TYPES[item.owner?.type ?? ''] ?? item.owner?.type,
      }),
    ),
    'record_id',
  );
}

/** The report's section per source type; an absent section is «nothing found» when its source is OK. */
export const SECTIONS: Readonly<
  Record<string, { section: string; read: (section: unknown) => Finding[]; empty: unknown }>
> = {
  pledges: { section: 'pledges', read: pledgeFindings, empty: { items: [] } },
  restrictions: { section: 'restrictions', read: restrictionFindings, empty: {} },
  wanted: { section: 'stealings', read: wantedFindings, empty: { items: [] } },
  accidents: { section: 'accidents', read: accidentFindings, empty: {} },
  registration: { section: 'ownership', read: registrationFindings, empty: {} },
};
