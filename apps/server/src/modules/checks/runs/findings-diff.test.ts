import {
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  type Finding,
  JOB_EVENT_TYPES,
  SOURCE_TYPE_CODES,
  type SourceType,
} from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { diffFindings, raisesOnFirstCheck, sameFindings } from './findings-diff.ts';

const f = (key: string, payload: Record<string, unknown> = {}): Finding => ({ key, payload });

/** One before/after pair per event type; the diff must give exactly that type. */
const CASES: { type: EventType; source: SourceType; before: Finding[]; after: Finding[] }[] = [
  { type: 'pledge_registered_other', source: 'pledges', before: [], after: [f('N1', { status: 'active' })] },
  {
    type: 'pledge_changed',
    source: 'pledges',
    before: [f('N1', { status: 'active', pledgee: 'А' })],
    after: [f('N1', { status: 'changed', pledgee: 'Б' })],
  },
  {
    type: 'pledge_excluded',
    source: 'pledges',
    before: [f('N1', { status: 'active' })],
    after: [f('N1', { status: 'excluded' })],
  },
  { type: 'wanted_added', source: 'wanted', before: [], after: [f('W1')] },
  { type: 'wanted_removed', source: 'wanted', before: [f('W1')], after: [] },
  { type: 'restriction_added', source: 'restrictions', before: [], after: [f('R1')] },
  { type: 'restriction_removed', source: 'restrictions', before: [f('R1')], after: [] },
  { type: 'ownership_changed', source: 'registration', before: [f('G1')], after: [f('G1'), f('G2')] },
  { type: 'accident_recorded', source: 'accidents', before: [], after: [f('A1')] },
  { type: 'bankruptcy_opened', source: 'bankruptcy', before: [], after: [f('B1', { status: 'open' })] },
  {
    type: 'bankruptcy_closed',
    source: 'bankruptcy',
    before: [f('B1', { status: 'open' })],
    after: [f('B1', { status: 'closed' })],
  },
  { type: 'enforcement_opened', source: 'enforcement', before: [], after: [f('E1', { status: 'open' })] },
  {
    type: 'enforcement_closed',
    source: 'enforcement',
    before: [f('E1', { status: 'open' })],
    after: [f('E1', { status: 'closed' })],
  },
  { type: 'passport_invalid', source: 'passport', before: [], after: [f('P1', { reason: 'Утрачен' })] },
  { type: 'passport_invalid_removed', source: 'passport', before: [f('P1')], after: [] },
  {
    type: 'finding_changed',
    source: 'accidents',
    before: [f('A1', { damage: 'x' })],
    after: [f('A1', { damage: 'y' })],
  },
];

describe('diffFindings', () => {
  it('has a case for every event type a diff raises (the lapse is raised by its job)', () => {
    expect(new Set(CASES.map((c) => c.type))).toEqual(
      new Set(EVENT_TYPE_CODES.filter((type) => !JOB_EVENT_TYPES.includes(type))),
    );
  });

  for (const c of CASES) {
    it(`${c.type} from a ${c.source} before/after pair`, () => {
      const events = diffFindings({ source: c.source, before: c.before, after: c.after, firstCheck: false });
      expect(events.map((e) => e.type)).toEqual([c.type]);
      const [event] = events;
      expect(event!.findingKey).toBe((c.after.at(-1) ?? c.before.at(-1))!.key);
      expect(event!.before).toEqual(c.before.find((x) => x.key === event!.findingKey)?.payload ?? null);
      expect(event!.after).toEqual(c.after.find((x) => x.key === event!.findingKey)?.payload ?? null);
    });
  }

  it('finds nothing when nothing changed, whatever the key order in payloads', () => {
    const before = [f('N1', { a: 1, b: { c: 2, d: 3 } }), f('N2')];
    const after = [f('N2'), f('N1', { b: { d: 3, c: 2 }, a: 1 })];
    expect(diffFindings({ source: 'pledges', before, after, firstCheck: false })).toEqual([]);
    expect(sameFindings(before, after)).toBe(true);
  });

  it('on the first check raises «added» events but takes history as the baseline', () => {
    const pledge = diffFindings({
      source: 'pledges',
      before: [],
      after: [f('N1', { status: 'active' })],
      firstCheck: true,
    });
    expect(pledge.map((e) => [e.type, e.firstCheck])).toEqual([['pledge_registered_other', true]]);
    const history = diffFindings({
      source: 'registration',
      before: [],
      after: [f('G1'), f('G2')],
      firstCheck: true,
    });
    expect(history).toEqual([]);
    const closed = diffFindings({
      source: 'enforcement',
      before: [],
      after: [f('E1', { status: 'closed' })],
      firstCheck: true,
    });
    expect(closed).toEqual([]);
  });

  it('raises nothing for an unverified registration until the registry source confirms it', () => {
    const diff = (before: Finding[], after: Finding[], firstCheck = false) =>
      diffFindings({ source: 'pledges', before, after, firstCheck }).map((e) => [e.type, e.severity]);
    const unverified = f('N1', { status: 'active', pledgee: 'Выдуманный', verified: false });
    const confirmed = f('N1', { status: 'active', pledgee: 'ПАО Банк' });
    // Appearing, changing, being excluded or vanishing while unverified: nothing, first check or not.
    expect(diff([], [unverified], true)).toEqual([]);
    expect(diff([], [unverified])).toEqual([]);
    expect(diff([unverified], [f('N1', { status: 'changed', pledgee: 'Другой', verified: false })])).toEqual(
      [],
    );
    expect(diff([unverified], [f('N1', { status: 'excluded', verified: false })])).toEqual([]);
    expect(diff([unverified], [])).toEqual([]);
    // Confirmed by the registry source: now it is the critical news, on a first check too.
    expect(diff([unverified], [confirmed])).toEqual([['pledge_registered_other', 'critical']]);
    expect(diff([], [confirmed], true)).toEqual([['pledge_registered_other', 'critical']]);
    expect(diff([unverified], [f('N1', { status: 'excluded' })])).toEqual([]);
    // The flags alone are not a change of the pledge.
    expect(diff([confirmed], [f('N1', { status: 'active', pledgee: 'ПАО Банк', own: true })])).toEqual([]);
    // Our own pledge, marked by the source: nothing, whatever happens to it.
    const own = f('N1', { status: 'active', pledgee: 'Мы', verified: false, own: true });
    expect(diff([], [own], true)).toEqual([]);
    expect(diff([own], [f('N1', { status: 'active', pledgee: 'Мы', own: true })])).toEqual([]);
    expect(diff([f('N1', { status: 'active', own: true })], [])).toEqual([]);
  });

  it("ignores the organisation's own pledges and already excluded ones", () => {
    const own = f('N1', { status: 'active', pledgeeOrganisationId: 'org-1' });
    expect(
      diffFindings({
        source: 'pledges',
        before: [],
        after: [own],
        firstCheck: false,
        organisationId: 'org-1',
      }),
    ).toEqual([]);
    expect(
      diffFindings({
        source: 'pledges',
        before: [],
        after: [own],
        firstCheck: false,
        organisationId: 'org-2',
      }).map((e) => e.type),
    ).toEqual(['pledge_registered_other']);
    expect(
      diffFindings({
        source: 'pledges',
        before: [],
        after: [f('N2', { status: 'excluded' })],
        firstCheck: false,
      }),
    ).toEqual([]);
  });

  it('marks events on demo records', () => {
    const [event] = diffFindings({
      source: 'wanted',
      before: [],
      after: [f('W1', { demo: true })],
      firstCheck: false,
    });
    expect(event!.demo).toBe(true);
    expect(event!.severity).toBe('critical');
  });

  it('raisesOnFirstCheck: a source raises on a first check exactly when some pair makes it raise', () => {
    // Every pair of the cases, with payload variants (statuses, flags) and either side emptied,
    // diffed for every source as a first check.
    const payloads = [
      {},
      { status: 'active' },
      { status: 'open' },
      { status: 'closed' },
      { status: 'excluded' },
    ];
    const variants = (findings: Finding[]) => [
      [],
      findings,
      ...payloads.map((payload) => findings.map((finding) => f(finding.key, payload))),
    ];
    for (const source of SOURCE_TYPE_CODES) {
      const raised = new Set<EventType>();
      for (const c of CASES) {
        for (const before of variants(c.before)) {
          for (const after of variants(c.after)) {
            for (const event of diffFindings({ source, before, after, firstCheck: true })) {
              raised.add(event.type);
            }
            // Whatever the check, a source raises only its own event types and those of no source.
            for (const event of diffFindings({ source, before, after, firstCheck: false })) {
              expect([source, null]).toContain(EVENT_TYPES[event.type].source);
            }
          }
        }
      }
      expect(raisesOnFirstCheck(source), source).toBe(raised.size > 0);
    }
    expect(raisesOnFirstCheck('registration')).toBe(false);
    expect(raisesOnFirstCheck('pledges')).toBe(true);
  });
});
