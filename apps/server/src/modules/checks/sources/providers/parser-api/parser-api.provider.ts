import type { Provider } from '../provider.ts';
import { ProviderFailure } from '../provider-failure.ts';
import { failForStatus, parseShape, readJson } from '../provider-http.ts';
import { parserApiAnswerSchema, parserApiPledges } from './parser-api.mapping.ts';

/**
 * Its error text (the registry's captcha or block passed on, the key, the balance) → the vocabulary;
 * anything else is the service failing. The captcha, block and outage come first: «Доступ запрещен»
 * is a blocked address, not a wrong key, and a captcha message may name its «token».
 */
function failureOf(text: string): ProviderFailure {
  if (/captcha|капч|доступ запрещ|заблокир|blocked/i.test(text)) {
    return new ProviderFailure('blocked', text.slice(0, 100));
  }
  // «временно недоступен» holds «доступ»: the registry down, not a refused key.
  if (/недоступ|unavailable|server error|ошибка сервиса/i.test(text)) {
    return new ProviderFailure('unavailable', text.slice(0, 100));
  }
  if (/ключ|key|token|авториз|доступ/i.test(text)) {
    return new ProviderFailure('credentials', text.slice(0, 100));
  }
  if (/баланс|balance|лимит|limit|оплат|средств/i.test(text)) {
    return new ProviderFailure('quota', text.slice(0, 100));
  }
  if (/vin|неверн|invalid|incorrect/i.test(text)) {
    return new ProviderFailure('refused', text.slice(0, 100));
  }
  return new ProviderFailure('unavailable', text.slice(0, 100));
}

/**
 * parser-api.com: the notary pledge registry searched by VIN,
 * `GET {url}/parser/reestr_api/search_by_vin?key=…&vin=…` → `{"success":1,"records":[…]}`.
 */
export const parserApiProvider: Provider = {
  name: 'parser-api',
  async fetch(ctx, item) {
    const answer = await ctx.send({
      path: '/parser/reestr_api/search_by_vin',
      query: { key: ctx.config.token ?? '', vin: item.identifier },
    });
    const body = answer.status >= 200 && answer.status < 300 ? readJson(answer) : undefined;
    if (body === undefined) {
      failForStatus(answer);
    }
    const parsed = parseShape(parserApiAnswerSchema, body);
    if (!(parsed.success === 1 || parsed.success === true)) {
      const text = [parsed.error, parsed.message].find((value) => typeof value === 'string');
      throw failureOf(typeof text === 'string' ? text : 'success=0');
    }
    if (!parsed.records) {
      throw new ProviderFailure('unreadable', 'поле records: нет списка');
    }
    return { findings: parserApiPledges(parsed.records) };
  },
};
