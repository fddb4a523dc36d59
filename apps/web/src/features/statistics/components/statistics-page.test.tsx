import { DELIVERY_STATUSES, monitoringEndpoints, statisticsResponseSchema } from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';
import { statisticsQueryOptions } from '../api/get-statistics';
import StatisticsPage from './statistics-page';
import { parseStatisticsView, toStatisticsBody } from './statistics-view';

const deliveries = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0]));
const counts = {
  events: 3,
  eventsByType: { pledge_registered_other: 3 },
  itemsAdded: 4,
  itemsArchived: 1,
  checkRuns: 2,
  checkRunItems: 40,
  oneTimeChecks: 5,
  uploads: 1,
  uploadRows: 10,
  uploadRowsAccepted: 9,
  uploadRowsRejected: 1,
  deliveries: { ...deliveries, sent: 6 },
};
const answer = {
  from: '2026-03-01',
  to: '2026-03-02',
  grouping: 'day',
  timezone: 'Europe/Moscow',
  eventTypes: ['pledge_registered_other'],
  points: [
    { bucket: '2026-03-01', bucketEnd: '2026-03-01', itemsMonitored: 20, ...counts },
    { bucket: '2026-03-02', bucketEnd: '2026-03-02', itemsMonitored: 23, ...counts },
  ],
  totals: { ...counts, events: 6, itemsMonitoredStart: 17, itemsMonitoredEnd: 23, deliveriesTotal: 6 },
};

afterEach(() => vi.unstubAllGlobals());

/** The statistics route for 1–2 March 2026 with more of the query string. */
function renderAt(query: string) {
  const url = `${paths.monitoringStatistics.getHref()}?period=custom&from=2026-03-01&to=2026-03-02${query}`;
  const view = parseStatisticsView(new URL(url, 'http://localhost').searchParams);
  return renderRoute({
    path: paths.monitoringStatistics.path,
    url,
    element: <StatisticsPage />,
    prefetch: (queryClient) => queryClient.prefetchQuery(statisticsQueryOptions(toStatisticsBody(view, ''))),
  });
}

describe('statistics route', () => {
  it('asks for the period and filters in the URL and shows the answer', async () => {
    const api = stubApi([
      { path: monitoringEndpoints.statistics.path, schema: statisticsResponseSchema, body: answer },
    ]);
    const html = await renderAt('&kind=vin');
    expect(api.requested).toEqual([monitoringEndpoints.statistics.path]);
    expect(api.sent).toEqual([
      expect.objectContaining({ from: '2026-03-01', to: '2026-03-02', itemKind: 'vin' }),
    ]);
    expect(textsOf(html, 'h1')).toEqual(['Статистика']);
    const text = visibleText(html);
    // The rendered page must match the request: dates from the URL (shown ДД.ММ.ГГГГ), not the default 30 days.
    expect(html).toContain('value="01.03.2026"');
    expect(html).toContain('value="02.03.2026"');
    expect(text).not.toContain('За этот период данных нет');
    expect(text).toContain('Событий всего 6');
    expect(text).toContain('В конце периода 23 В начале периода 17');
    expect(text).toContain('Регулярных проверок 2 Объектов проверено 40 Разовых проверок 5');
    expect(text).toContain('Загрузок 1 Строк в файлах 10 Принято 9 Отклонено 1');
    // No spend in the answer (not an admin): no spend chart.
    expect(text).not.toContain('Расход');
  });

  it('shows the spend chart with its total when the server sends spend (an admin)', async () => {
    const withSpend = {
      ...answer,
      points: answer.points.map((point, n) => ({ ...point, spend: n === 0 ? 12.5 : 30 })),
      totals: { ...answer.totals, spend: 42.5 },
    };
    stubApi([
      { path: monitoringEndpoints.statistics.path, schema: statisticsResponseSchema, body: withSpend },
    ]);
    const html = await renderAt('');
    const text = visibleText(html);
    expect(text).toContain('Расход на запросы к поставщикам, ₽');
    expect(text).toMatch(/Расход за период, ₽ 42,5/);
  });

  it('says the period has no data only when no chart shows anything', async () => {
    const zero = Object.fromEntries(Object.keys(counts).map((key) => [key, 0]));
    const quiet = { ...zero, eventsByType: {}, deliveries };
    // A fresh install: items in the portfolio, nothing else happened.
    const portfolioOnly = {
      ...answer,
      eventTypes: [],
      points: answer.points.map((point) => ({ ...point, ...quiet, itemsMonitored: 3100 })),
      totals: { ...quiet, itemsMonitoredStart: 3100, itemsMonitoredEnd: 3100, deliveriesTotal: 0 },
    };
    stubApi([
      { path: monitoringEndpoints.statistics.path, schema: statisticsResponseSchema, body: portfolioOnly },
    ]);
    const withItems = visibleText(await renderAt(''));
    expect(withItems).toContain('В конце периода 3');
    expect(withItems).not.toContain('За этот период данных нет');

    const nothing = {
      ...portfolioOnly,
      points: portfolioOnly.points.map((point) => ({ ...point, itemsMonitored: 0 })),
      totals: { ...portfolioOnly.totals, itemsMonitoredStart: 0, itemsMonitoredEnd: 0 },
    };
    stubApi([{ path: monitoringEndpoints.statistics.path, schema: statisticsResponseSchema, body: nothing }]);
    expect(visibleText(await renderAt(''))).toContain('За этот период данных нет');
  });
});
