import { z } from 'zod';
import type { CheckItem } from '../../source-adapter.ts';
import type { Provider, ProviderAnswer, ProviderContext } from '../provider.ts';
import { ProviderFailure } from '../provider-failure.ts';
import { failForStatus, parseShape, readJson } from '../provider-http.ts';
import { bankruptcyFindings, bankruptsAnswerSchema } from './fedresurs.mapping.ts';

/** Signed-in tokens per address and login, kept until shortly before they expire. */
const tokens = new Map<string, { jwt: string; expiresAt: number }>();

/** The JWT's own `exp`, else an hour: a token is never kept past what it says. */
function expiryOf(jwt: string, now: number): number {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    if (typeof payload.exp === 'number') {
      return payload.exp * 1000;
    }
  } catch {
    // Not a readable JWT: the fallback below.
  }
  return now + 3600_000;
}

const authAnswerSchema = z.object({ jwt: z.string().min(1) });

/** A rejected request comes as a 200 with `code` and `message` (providers.md §4.1). */
function readAnswer(answer: ProviderAnswer): unknown {
  const body = answer.status < 300 || answer.text.trimStart().startsWith('<') ? readJson(answer) : undefined;
  failForStatus(answer);
  if (
    typeof body === 'object' &&
    body !== null &&
    'code' in body &&
    'message' in body &&
    !('pageData' in body)
  ) {
    const { code, message } = body as { code: unknown; message: unknown };
    throw new ProviderFailure('refused', `${String(code)} ${String(message).slice(0, 80)}`);
  }
  return body;
}

function credentials(ctx: ProviderContext): { login: string; password: string } {
  const token = ctx.config.token ?? '';
  const at = token.indexOf(':');
  return { login: token.slice(0, at), password: token.slice(at + 1) };
}

async function signIn(ctx: ProviderContext, fresh: boolean): Promise<string> {
  const { login, password } = credentials(ctx);
  const key = `${ctx.config.url}|${login}`;
  const kept = tokens.get(key);
  if (!fresh && kept && kept.expiresAt - 60_000 > ctx.now()) {
    return kept.jwt;
  }
  const answer = await ctx.send({ method: 'POST', path: '/v1/auth', json: { login, password } });
  const { jwt } = parseShape(authAnswerSchema, readAnswer(answer));
  tokens.set(key, { jwt, expiresAt: expiryOf(jwt, ctx.now()) });
  return jwt;
}

/** A GET with the kept token; one fresh sign-in when the provider says the token is no longer good. */
async function authorisedGet(ctx: ProviderContext, path: string, query: Record<string, string>) {
  let jwt = await signIn(ctx, false);
  let answer = await ctx.send({ path, query, headers: { authorization: `Bearer ${jwt}` } });
  if (answer.status === 401) {
    jwt = await signIn(ctx, true);
    answer = await ctx.send({ path, query, headers: { authorization: `Bearer ${jwt}` } });
  }
  return readAnswer(answer);
}

/** The debtor search's filter for an identifier: INN (10 digits a company, 12 a person), OGRN, OGRNIP. */
function debtorQuery(item: CheckItem): Record<string, string> {
  switch (item.documentType) {
    case 'inn':
      return { type: item.identifier.length === 10 ? 'Company' : 'Person', inn: item.identifier };
    case 'ogrn':
      return { type: 'Company', ogrn: item.identifier };
    case 'ogrnip':
      return { type: 'Person', ogrnip: item.identifier };
    default:
      throw new ProviderFailure('refused', 'Федресурс ищет по ИНН, ОГРН или ОГРНИП');
  }
}

/** Debtors read per identifier; more would be the same person under several records. */
const MAX_DEBTORS = 5;

/**
 * Fedresurs (ЕФРСБ) REST: `POST /v1/auth` for a JWT (kept until it expires), `GET /v1/bankrupts` by
 * INN / OGRN / OGRNIP, then `GET /v1/messages` of each debtor found; one finding per case.
 */
export const fedresursProvider: Provider = {
  name: 'fedresurs',
  documentTypes: ['inn', 'ogrn', 'ogrnip'],
  async fetch(ctx, item) {
    const bankrupts = parseShape(
      bankruptsAnswerSchema,
      await authorisedGet(ctx, '/v1/bankrupts', { ...debtorQuery(item), limit: '10', offset: '0' }),
    );
    const findings = [];
    for (const bankrupt of bankrupts.pageData.slice(0, MAX_DEBTORS)) {
      const messages = await authorisedGet(ctx, '/v1/messages', {
        bankruptGUID: bankrupt.guid,
        includeContent: 'true',
        sort: 'DatePublish:desc',
        limit: '100',
        offset: '0',
      });
      findings.push(...bankruptcyFindings(bankrupt, messages));
    }
    return { findings: findings.toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
  },
};

/** Tests start from no kept token. */
export function forgetFedresursTokens(): void {
  tokens.clear();
}
