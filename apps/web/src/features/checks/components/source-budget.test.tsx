import type { Source } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { renderRoute, visibleText } from '@/testing/render-route';
import { SourceBudget } from './source-budget';

const remote = {
  adapter: 'remote',
  provider: 'api-cloud',
  requestsToday: 4200,
  dailyLimit: 6000,
  coverage: 0.3,
  itemsWaiting: 14000,
} as Source;

const render = (source: Source) =>
  renderRoute({ path: '/', url: '/', element: <SourceBudget source={source} /> });

describe('SourceBudget', () => {
  it('shows the provider, requests today against the limit, coverage, waiting items and the spend an admin gets', async () => {
    const text = visibleText(await render({ ...remote, spendToday: 6300, spendMonth: 120_000.5 }));
    expect(text).toContain('Поставщик: API-Cloud');
    expect(text).toMatch(/Запросов сегодня: 4\s200 из 6\s000/);
    expect(text).toContain('Покрытие: 30 %');
    expect(text).toMatch(/Ждут запроса: 14\s000/);
    expect(text).toMatch(/Расход: 6\s300,00 ₽ сегодня, 120\s000,50 ₽ за месяц/);
  });

  it('shows no money when the server sent none (an analyst)', async () => {
    const text = visibleText(await render(remote));
    expect(text).toContain('Покрытие: 30 %');
    expect(text).not.toContain('Расход');
  });

  it('says when the day’s limit is spent (not a failure of the source), and not before', async () => {
    const spent = visibleText(await render({ ...remote, requestsToday: 6000 }));
    expect(spent).toMatch(/Запросов сегодня: 6\s000 из 6\s000/);
    expect(spent).toContain('Дневной лимит исчерпан: остальные объекты будут запрошены завтра');
    expect(visibleText(await render(remote))).not.toContain('Дневной лимит исчерпан');
    expect(visibleText(await render({ ...remote, dailyLimit: null }))).not.toContain('Дневной лимит');
  });
});
