// @vitest-environment happy-dom
import {
  DELIVERY_STATUSES,
  monitoringEndpoints,
  type StatisticsBody,
  statisticsResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { moscowToday } from '@/lib/moscow-time';
import { renderDom } from '@/testing/render-dom';
import StatisticsPage from './statistics-page';

const DAY_MS = 86_400_000;
const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

const noDeliveries = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0]));

/** An answer for the period asked: `events` events and `runs` check runs on its first day, 20 items monitored. */
function answerFor(body: StatisticsBody, figures: { events: number; runs: number; monitored?: number }) {
  const monitored = figures.monitored ?? 20;
  const counts = {
    events: figures.events,
    eventsByType: figures.events > 0 ? { pledge_registered_other: figures.events } : {},
    itemsAdded: 0,
    itemsArchived: 0,
    checkRuns: figures.runs,
    checkRunItems: figures.runs * 10,
    oneTimeChecks: 0,
    uploads: 0,
    uploadRows: 0,
    uploadRowsAccepted: 0,
    uploadRowsRejected: 0,
    deliveries: noDeliveries,
  };
  return statisticsResponseSchema.parse({
    from: body.from,
    to: body.to,
    grouping: body.grouping ?? 'day',
    timezone: 'Europe/Moscow',
    eventTypes: figures.events > 0 ? ['pledge_registered_other'] : [],
    points: [{ bucket: body.from, bucketEnd: body.from, itemsMonitored: monitored, ...counts }],
    totals: { ...counts, itemsMonitoredStart: monitored, itemsMonitoredEnd: monitored, deliveriesTotal: 0 },
  });
}

type Answer = { status: number; body: unknown };

/** Stubs fetch with the statistics endpoint; `answer` sees each request's body. Records the bodies. */
function stubStatistics(answer: (body: StatisticsBody) => Answer) {
  const bodies: StatisticsBody[] = [];
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== monitoringEndpoints.statistics.path) {
      return new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'нет заглушки' }), { status: 404 });
    }
    const body = JSON.parse(String(init?.body)) as StatisticsBody;
    bodies.push(body);
    const { status, body: sent } = answer(body);
    return new Response(JSON.stringify(sent), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return bodies;
}

/** Two days of March: 6 events and 2 runs; any other period: 41 events and 9 runs. */
const byPeriod = (body: StatisticsBody): Answer => ({
  status: 200,
  body:
    body.from === '2026-03-01' && body.to === '2026-03-02'
      ? answerFor(body, { events: 6, runs: 2 })
      : answerFor(body, { events: 41, runs: 9 }),
});

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

const render = (query: string) =>
  renderDom({
    path: paths.monitoringStatistics.path,
    url: `${paths.monitoringStatistics.getHref()}?${query}`,
    element: (
      <>
        <StatisticsPage />
        <Where />
      </>
    ),
  });

const shown = (testId: string) => screen.getByTestId(testId).getAttribute('data-value');
const urlParams = () =>
  Object.fromEntries(new URLSearchParams(screen.getByTestId('location').textContent ?? ''));

/** The page on 1–2 March 2026 once its figures are shown, with the bodies of the requests sent. */
async function renderMarch() {
  const bodies = stubStatistics(byPeriod);
  const rendered = render('period=custom&from=2026-03-01&to=2026-03-02');
  await waitFor(() => expect(shown('total-events')).toBe('6'));
  return { bodies, ...rendered };
}

describe('statistics: the period', () => {
  it('asks for the days of the chosen preset and shows that answer’s figures', async () => {
    const { bodies, user } = await renderMarch();
    expect(shown('total-check-runs')).toBe('2');
    expect(bodies).toEqual([{ from: '2026-03-01', to: '2026-03-02', grouping: 'day' }]);
    expect(screen.getByRole('button', { name: 'Свой период' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: '7 дней' }));
    const today = moscowToday();
    await waitFor(() => expect(shown('total-events')).toBe('41'));
    expect(shown('total-check-runs')).toBe('9');
    expect(bodies.at(-1)).toEqual({ from: daysBefore(today, 6), to: today, grouping: 'day' });
    // The view is in the URL, so the link shows the same period; the preset drops the custom days.
    expect(urlParams()).toEqual({ period: '7' });
    expect(screen.getByRole('button', { name: '7 дней' }).getAttribute('aria-pressed')).toBe('true');
  }, 120_000);

  it('asks for the days picked in the calendar as a custom period', async () => {
    const { bodies, user } = await renderMarch();

    const [, toCalendar] = screen.getAllByRole('button', { name: /^Выберите дату/ });
    await user.click(toCalendar!);
    await user.click(await screen.findByRole('gridcell', { name: '9' }));
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({ from: '2026-03-01', to: '2026-03-09', grouping: 'day' }),
    );
    await waitFor(() => expect(shown('total-events')).toBe('41'));
    expect(urlParams()).toEqual({ period: 'custom', from: '2026-03-01', to: '2026-03-09' });

    // «С» cannot be picked after «По»: its calendar shuts the days after the 9th.
    const [fromCalendar] = screen.getAllByRole('button', { name: /^Выберите дату/ });
    await user.click(fromCalendar!);
    const day = (name: string) => screen.findByRole('gridcell', { name }) as Promise<HTMLButtonElement>;
    expect((await day('9')).disabled).toBe(false);
    expect((await day('10')).disabled).toBe(true);
  }, 120_000);

  it('groups by week when «Недели» is chosen, and by day again when «Дни» is', async () => {
    const { bodies, user } = await renderMarch();

    await user.click(screen.getByRole('button', { name: 'Недели' }));
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({ from: '2026-03-01', to: '2026-03-02', grouping: 'week' }),
    );
    expect(urlParams()).toMatchObject({ grouping: 'week' });

    await user.click(screen.getByRole('button', { name: 'Дни' }));
    // Back to the default: no grouping in the URL, the day answer from the cache or the server.
    await waitFor(() => expect(urlParams().grouping).toBeUndefined());
    expect(shown('total-events')).toBe('6');
  }, 120_000);

  it('sends the object kind chosen', async () => {
    const { bodies, user } = await renderMarch();

    await user.click(screen.getByRole('combobox', { name: 'Объекты' }));
    await user.click(await screen.findByRole('option', { name: 'Документы' }));
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({
        from: '2026-03-01',
        to: '2026-03-02',
        grouping: 'day',
        itemKind: 'document',
      }),
    );
    expect(urlParams()).toMatchObject({ kind: 'document' });
  }, 120_000);

  it('says in Russian that a period has no data', async () => {
    // Nothing happened and nothing is monitored: every total is zero.
    stubStatistics((body) => ({ status: 200, body: answerFor(body, { events: 0, runs: 0, monitored: 0 }) }));
    render('period=custom&from=2026-03-01&to=2026-03-02');
    expect(await screen.findByText('За этот период данных нет — нули по всем интервалам.')).toBeTruthy();
  }, 120_000);
});

describe('statistics: refusals', () => {
  it('shows why the server refused the period, with its field message, in Russian', async () => {
    stubStatistics(() => ({
      status: 422,
      body: {
        statusCode: 422,
        code: 'VALIDATION_FAILED',
        message: 'Проверьте правильность заполнения полей',
        fieldErrors: [{ field: 'to', message: 'Период не длиннее 366 дней' }],
      },
    }));
    // A shared link with two years in it.
    render('period=custom&from=2024-01-01&to=2026-03-01');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Проверьте правильность заполнения полей');
    expect(alert.textContent).toContain('Период не длиннее 366 дней');
    expect(screen.queryByTestId('total-events')).toBeNull();
    expect((screen.getByRole('button', { name: 'Данные CSV' }) as HTMLButtonElement).disabled).toBe(true);
  }, 120_000);
});
