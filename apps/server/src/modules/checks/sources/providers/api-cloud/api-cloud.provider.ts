import type { Finding, SourceType } from '@pledgewatch/contract';
import type { Provider, ProviderAnswer } from '../provider.ts';
import { ProviderFailure } from '../provider-failure.ts';
import { parseShape, readJson } from '../provider-http.ts';
import {
  apiCloudError,
  dtpFindings,
  gibddAnswerSchema,
  listAnswerSchema,
  registrationFindings,
  restrictFindings,
  wantedFindings,
  zalogAnswerSchema,
  zalogFindings,
} from './api-cloud.mapping.ts';

/** The API method and `type` per source type, and how its answer becomes findings. */
const METHODS: Partial<
  Record<SourceType, { path: string; kind: string; read: (body: unknown) => Finding[] }>
> = {
  pledges: {
    path: '/api/zalog.php',
    kind: 'notary',
    read(body) {
      const parsed = parseShape(zalogAnswerSchema, body);
      if (parsed.rez) {
        return zalogFindings(parsed.rez);
      }
      // Nothing found: no `rez`, a `message` instead (providers.md §1.2).
      if (typeof parsed.message === 'string') {
        return [];
      }
      throw new ProviderFailure('unreadable', 'поле rez: нет списка');
    },
  },
  restrictions: {
    path: '/api/gibdd.php',
    kind: 'restrict',
    read: (body) => restrictFindings(parseShape(listAnswerSchema, body).records),
  },
  wanted: {
    path: '/api/gibdd.php',
    kind: 'wanted',
    read: (body) => wantedFindings(parseShape(listAnswerSchema, body).records),
  },
  accidents: {
    path: '/api/gibdd.php',
    kind: 'dtp',
    read: (body) => dtpFindings(parseShape(listAnswerSchema, body).records),
  },
  registration: {
    path: '/api/gibdd.php',
    kind: 'gibdd',
    read(body) {
      const parsed = parseShape(gibddAnswerSchema, body);
      if (parsed.found === false || parsed.found === 0 || parsed.found === 'false') {
        return [];
      }
      const periods = parsed.ownershipPeriod;
      if (Array.isArray(periods)) {
        return registrationFindings(periods);
      }
      if (typeof periods === 'object' && periods !== null) {
        return registrationFindings([periods]);
      }
      throw new ProviderFailure('unreadable', 'поле ownershipPeriod: нет списка');
    },
  },
};

/** api-cloud detects errors by the `error` field, never by the status; a bare HTTP failure otherwise. */
function readBody(answer: ProviderAnswer): unknown {
  const body = readJson(answer);
  const failure = apiCloudError(body);
  if (failure) {
    throw failure;
  }
  if (answer.status === 404) {
    throw new ProviderFailure('unavailable', 'HTTP 404');
  }
  if (answer.status === 401 || answer.status === 403) {
    throw new ProviderFailure('credentials', `HTTP ${answer.status}`);
  }
  if (answer.status >= 400) {
    throw new ProviderFailure('unavailable', `HTTP ${answer.status}`);
  }
  return body;
}

/**
 * api-cloud.ru: the notary pledge registry (`/api/zalog.php?type=notary`) and the traffic police
 * checks (`/api/gibdd.php?type=restrict|wanted|dtp|gibdd`), each `&vin=…&token=…`.
 */
export const apiCloudProvider: Provider = {
  name: 'api-cloud',
  async fetch(ctx, item) {
    const method = METHODS[ctx.type];
    if (!method) {
      throw new ProviderFailure('refused', `тип источника ${ctx.type} не обслуживается`);
    }
    const answer = await ctx.send({
      path: method.path,
      query: { type: method.kind, vin: item.identifier, token: ctx.config.token ?? '' },
    });
    return { findings: method.read(readBody(answer)) };
  },
};
