// @vitest-environment happy-dom
import {
  type DashboardResponse,
  dashboardResponseSchema,
  errorResponseSchema,
  monitoringEndpoints,
} from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DELIVERY_LOG_PARAMS, paths } from '@/config/paths';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import DashboardPage from './dashboard-page';

const CHECK_ID = '0193a000-0000-7000-8000-0000000000c1';

const answer: DashboardResponse = {
  items: {
    monitored: 1530,
    byKind: [
      { kind: 'vin', active: 1200, paused: 300, archived: 45 },
      { kind: 'document', active: 30, paused: 0, archived: 2 },
    ],
  },
  unreadEvents: {
    total: 17,
    byType: [
      { type: 'wanted_added', severity: 'critical', count: 3 },
      { type: 'pledge_registered_other', severity: 'high', count: 14 },
    ],
    bySeverity: [
      { severity: 'critical', count: 3 },
      { severity: 'high', count: 14 },
      { severity: 'medium', count: 0 },
      { severity: 'low', count: 0 },
    ],
  },
  lastRun: {
    id: '0193a000-0000-7000-8000-0000000000a1',
    trigger: 'scheduled',
    status: 'running',
    itemsTotal: 1530,
    itemsDone: 612,
    eventsCreated: 9,
    createdAt: '2026-03-01T06:00:00.000Z',
    startedAt: '2026-03-01T06:00:02.000Z',
    finishedAt: null,
    failedSources: [],
  },
  lastItemCheckAt: '2026-03-01T06:00:30.000Z',
  deliveries: { failedRecent: 4, failedTotal: 11, since: '2026-02-22T06:00:00.000Z' },
  recentOneTimeChecks: [
    {
      id: CHECK_ID,
      number: 'ПР-2026-000042',
      kind: 'vin',
      documentType: null,
      documentTypeLabel: null,
      identifier: 'XTA21099072765432',
      identifierDisplay: 'XTA21099072765432',
      status: 'completed',
      findingsCount: 2,
      demo: false,
      createdBy: { id: null, fullName: 'Иванова Анна' },
      createdAt: '2026-03-01T07:15:00.000Z',
      durationMs: 830,
    },
  ],
};

/** A fresh organisation: nothing monitored, no events, no runs, no checks. */
const empty: DashboardResponse = {
  items: { monitored: 0, byKind: [] },
  unreadEvents: { total: 0, byType: [], bySeverity: [] },
  lastRun: null,
  lastItemCheckAt: null,
  deliveries: { failedRecent: 0, failedTotal: 0, since: '2026-02-22T06:00:00.000Z' },
  recentOneTimeChecks: [],
};

function Where() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

const stub = (body: DashboardResponse) =>
  stubApi([{ path: monitoringEndpoints.dashboard.path, schema: dashboardResponseSchema, body }]);

const render = () =>
  renderDom({
    path: '*',
    url: paths.home.getHref(),
    element: (
      <>
        <DashboardPage />
        <Where />
      </>
    ),
  });

const where = () => screen.getByTestId('location').textContent;
const hrefOf = (element: HTMLElement) => element.closest('a')?.getAttribute('href');
const query = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

describe('dashboard: its cards', () => {
  it('shows the figures of the answer, each a link to the screen that lists them', async () => {
    stub(answer);
    const { user } = render();

    const itemsTotal = await screen.findByTestId('dashboard-items-total');
    expect(itemsTotal.textContent?.replace(/\s/g, '')).toBe('1530');
    expect(hrefOf(itemsTotal)).toBe(paths.monitoringItems.getHref());
    const paused = screen.getByTestId('dashboard-items-vin-paused');
    expect(paused.textContent).toBe('300');
    expect(hrefOf(paused)).toBe(
      `${paths.monitoringItems.getHref()}${query({ entity: 'vin', status: 'paused' })}`,
    );
    expect(screen.getByTestId('dashboard-items-document-archived').textContent).toBe('2');

    const unread = screen.getByTestId('dashboard-unread-total');
    expect(unread.textContent).toBe('17');
    expect(hrefOf(unread)).toBe(`${paths.monitoringEvents.getHref()}${query({ read: 'false' })}`);
    // Severities without unread events get no chip.
    const bySeverity = screen.getByLabelText('По важности');
    expect(
      within(bySeverity)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Критическая3', 'Высокая14']);
    expect(hrefOf(screen.getByTestId('dashboard-unread-critical'))).toBe(
      `${paths.monitoringEvents.getHref()}${query({ severity: 'critical', read: 'false' })}`,
    );
    const byType = screen.getByTestId('dashboard-unread-pledge_registered_other-high');
    expect(byType.textContent).toBe('14');
    expect(hrefOf(byType)).toBe(
      `${paths.monitoringEvents.getHref()}${query({ type: 'pledge_registered_other', severity: 'high', read: 'false' })}`,
    );

    const run = screen.getByTestId('dashboard-run');
    expect(within(run).getByText('Выполняется')).toBeTruthy();
    expect(within(run).getByText('612 из 1 530')).toBeTruthy();
    expect(within(run).getByText('Новых событий: 9')).toBeTruthy();
    expect(within(run).getByText('Запуск: 01.03.2026, 09:00 (МСК)')).toBeTruthy();

    const failed = screen.getByTestId('dashboard-deliveries-failed');
    expect(failed.textContent).toBe('4');
    expect(hrefOf(failed)).toBe(
      `${paths.monitoringNotifications.getHref()}${query({ [DELIVERY_LOG_PARAMS.status]: 'failed' })}`,
    );
    expect(screen.getByText('Всего с ошибкой: 11')).toBeTruthy();

    const recent = screen.getByRole('link', { name: 'ПР-2026-000042' });
    expect(recent.closest('div')?.textContent).toContain('Все источники ответили · находок: 2');

    // A click on a figure opens its screen with the same filter.
    await user.click(paused);
    expect(where()).toBe(`${paths.monitoringItems.getHref()}${query({ entity: 'vin', status: 'paused' })}`);
  }, 120_000);

  it('opens a one-time check from its line in the recent list', async () => {
    stub(answer);
    const { user } = render();
    await user.click(await screen.findByRole('link', { name: 'ПР-2026-000042' }));
    expect(where()).toBe(`${paths.oneTimeCheckResults.getHref()}${query({ id: CHECK_ID })}`);
  }, 120_000);

  it('says in words that there is nothing yet on a fresh organisation', async () => {
    stub(empty);
    render();
    expect((await screen.findByTestId('dashboard-items-total')).textContent).toBe('0');
    expect(screen.getByTestId('dashboard-unread-total').textContent).toBe('0');
    expect(screen.getByText('Регулярных проверок ещё не было.')).toBeTruthy();
    expect(screen.getByText('Непрочитанных событий нет.')).toBeTruthy();
    expect(screen.getByText('Разовых проверок ещё не было.')).toBeTruthy();
    expect(within(screen.getByLabelText('По важности')).queryAllByRole('link')).toEqual([]);
  }, 120_000);

  it('shows the server’s Russian message when the dashboard cannot be read', async () => {
    stubApi([
      {
        path: monitoringEndpoints.dashboard.path,
        schema: errorResponseSchema,
        body: { statusCode: 403, code: 'FORBIDDEN', message: 'Недостаточно прав' },
        status: 403,
      },
    ]);
    render();
    expect((await screen.findByRole('alert')).textContent).toContain('Недостаточно прав');
    expect(screen.queryByTestId('dashboard-items-total')).toBeNull();
  }, 120_000);
});

describe('dashboard: the quick check', () => {
  it('asks for a number in Russian when the field is empty, and stays on the dashboard', async () => {
    const api = stub(answer);
    const { user } = render();
    await screen.findByTestId('dashboard-items-total');
    await user.click(screen.getByRole('button', { name: 'Проверить' }));
    expect(await screen.findByText('Введите VIN или номер документа')).toBeTruthy();
    expect(where()).toBe(paths.home.getHref());
    expect(api.calls.every((call) => call.url === monitoringEndpoints.dashboard.path)).toBe(true);

    // Typing clears the message.
    await user.type(screen.getByTestId('dashboard-quick-check'), 'X');
    await waitFor(() => expect(screen.queryByText('Введите VIN или номер документа')).toBeNull());
  }, 120_000);

  it('opens the one-time check form filled with the VIN typed', async () => {
    stub(answer);
    const { user } = render();
    await screen.findByTestId('dashboard-items-total');
    await user.type(screen.getByTestId('dashboard-quick-check'), '  XTA21099072765432 ');
    await user.click(screen.getByRole('button', { name: 'Проверить' }));
    expect(where()).toBe(`${paths.oneTimeCheck.getHref()}${query({ vin: 'XTA21099072765432' })}`);
  }, 120_000);
});
