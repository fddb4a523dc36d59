import { dashboardResponseSchema, monitoringEndpoints } from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { renderRoute, stubApi, visibleText } from '@/testing/render-route';
import { dashboardQueryOptions } from '../api/get-dashboard';
import DashboardPage from './dashboard-page';

const dashboard = {
  items: { monitored: 12, byKind: [{ kind: 'vin', active: 12, paused: 0, archived: 0 }] },
  unreadEvents: { total: 0, byType: [], bySeverity: [] },
  lastRun: {
    id: '7d0f2c1e-0000-4000-8000-000000000010',
    trigger: 'manual',
    status: 'completed_with_errors',
    itemsTotal: 12,
    itemsDone: 12,
    eventsCreated: 0,
    createdAt: '2026-03-01T09:00:00.000Z',
    startedAt: '2026-03-01T09:00:01.000Z',
    finishedAt: '2026-03-01T09:01:00.000Z',
    failedSources: [
      {
        type: 'wanted',
        name: 'Розыск',
        batchesFailed: 1,
        itemsNotChecked: 12,
        reason: 'Источник ответил ошибкой 503',
      },
    ],
  },
  lastItemCheckAt: '2026-03-01T09:01:00.000Z',
  deliveries: { failedRecent: 0, failedTotal: 0, since: '2026-02-22T09:00:00.000Z' },
  recentOneTimeChecks: [],
};

afterEach(() => vi.unstubAllGlobals());

describe('dashboard route', () => {
  it('shows a source that failed in the last run as failed, with its reason — not as a clean run', async () => {
    stubApi([{ path: monitoringEndpoints.dashboard.path, schema: dashboardResponseSchema, body: dashboard }]);
    const html = await renderRoute({
      path: paths.home.path,
      url: paths.home.getHref(),
      element: <DashboardPage />,
      prefetch: (queryClient) => queryClient.prefetchQuery(dashboardQueryOptions()),
    });
    const text = visibleText(html);
    expect(text).toContain('Завершена с ошибками источников');
    expect(text).toContain('Не ответили источники — их проверки не засчитаны как «чисто»:');
    expect(text).toContain('Розыск: Источник ответил ошибкой 503 (не проверено объектов: 12)');
  });

  it('shows no failed-sources notice when every source answered', async () => {
    stubApi([
      {
        path: monitoringEndpoints.dashboard.path,
        schema: dashboardResponseSchema,
        body: { ...dashboard, lastRun: { ...dashboard.lastRun, status: 'completed', failedSources: [] } },
      },
    ]);
    const html = await renderRoute({
      path: paths.home.path,
      url: paths.home.getHref(),
      element: <DashboardPage />,
      prefetch: (queryClient) => queryClient.prefetchQuery(dashboardQueryOptions()),
    });
    expect(visibleText(html)).not.toContain('Не ответили источники');
  });
});
