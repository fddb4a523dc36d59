// @vitest-environment happy-dom
import {
  checkEndpoints,
  eventsResponseSchema,
  type MonitoringEvent,
  markEventsReadResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { savedViewsAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import EventsPage from './events-page';

const event = (n: number): MonitoringEvent => ({
  id: `7d0f2c1e-0000-4000-8000-00000000000${n}`,
  type: 'wanted_added',
  typeLabel: 'Объявлен розыск',
  severity: 'critical',
  source: 'wanted',
  sourceName: 'Розыск',
  findingKey: `k${n}`,
  before: null,
  after: { region: 'Москва' },
  firstCheck: false,
  demo: false,
  detectedAt: '2026-03-01T09:30:00.000Z',
  read: false,
  runId: null,
  item: {
    id: `7d0f2c1e-0000-4000-8000-00000000010${n}`,
    kind: 'vin',
    documentType: null,
    identifier: `XTA2109907276543${n}`,
    label: null,
    contractNumber: null,
  },
});

const stub = () =>
  stubApi([
    {
      method: 'GET',
      path: checkEndpoints.events.path,
      schema: eventsResponseSchema,
      body: { items: [event(1), event(2), event(3)], total: 1234, unread: 2000 },
    },
    {
      method: 'POST',
      path: checkEndpoints.markEventsRead.path,
      schema: markEventsReadResponseSchema,
      body: { updated: 2 },
    },
    {
      method: 'POST',
      path: checkEndpoints.markEventsReadByFilter.path,
      schema: markEventsReadResponseSchema,
      body: { updated: 1234 },
    },
  ]);

const PAGE_URL = `${paths.monitoringEvents.getHref()}?source=wanted&search=xta&from=2026-03-01&to=2026-03-31`;
const render = () => renderDom({ path: paths.monitoringEvents.path, url: PAGE_URL, element: <EventsPage /> });

describe('events: work on many at once', () => {
  it('marks the chosen events read by their ids', async () => {
    const api = stub();
    const { user } = render();
    await screen.findAllByText('XTA21099072765431');
    await user.click(screen.getByRole('checkbox', { name: 'Выбрать событие XTA21099072765431' }));
    await user.click(screen.getByRole('checkbox', { name: 'Выбрать событие XTA21099072765433' }));
    await user.click(screen.getByRole('button', { name: 'Прочитать выбранные (2)' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
        {
          method: 'POST',
          url: checkEndpoints.markEventsRead.path,
          body: { ids: [event(1).id, event(3).id], read: true },
        },
      ]),
    );
    expect(await screen.findByText('Отмечено прочитанными: 2')).toBeTruthy();
  });

  it('asks with the count, then sends the filter (not ids) to mark everything it matches', async () => {
    const api = stub();
    const { user } = render();
    await screen.findAllByText('XTA21099072765431');
    await user.click(screen.getByRole('button', { name: 'Прочитать все по фильтру' }));
    const dialog = await screen.findByRole('dialog');
    // The count is the filter's unread events, asked of the list with read=false.
    expect(
      await within(dialog).findByText(/Отметить прочитанными 1\s234 непрочитанных событий/),
    ).toBeTruthy();
    expect(api.requested).toContainEqual(expect.stringMatching(/events\/items\?.*read=false/));
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Отметить прочитанными' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    const [call] = api.calls.filter((item) => item.method === 'POST');
    expect(call!.url).toBe(checkEndpoints.markEventsReadByFilter.path);
    expect(call!.body).toMatchObject({ read: true, filter: { source: ['wanted'], search: 'xta' } });
    expect(call!.body).not.toHaveProperty('ids');
    expect((call!.body as { filter: Record<string, unknown> }).filter).not.toHaveProperty('page');
  });

  it('downloads the filtered list as XLSX and CSV from the events report', async () => {
    stub();
    render();
    await screen.findAllByText('XTA21099072765431');
    const xlsx = screen.getByRole('link', { name: 'Скачать XLSX' }).getAttribute('href')!;
    const url = new URL(xlsx, 'http://localhost');
    expect(url.pathname).toBe('/api/v1/monitoring/report');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      kind: 'events',
      format: 'xlsx',
      from: '2026-03-01',
      to: '2026-03-31',
      source: 'wanted',
      search: 'xta',
    });
    expect(screen.getByRole('link', { name: 'Скачать CSV' }).getAttribute('href')).toContain('format=csv');
  });
});

describe('events: a saved view opened from the menu', () => {
  it('fills the search box with the view’s search and asks the server for the view’s filters', async () => {
    const api = stubApi([
      {
        method: 'GET',
        path: checkEndpoints.events.path,
        schema: eventsResponseSchema,
        body: { items: [event(1)], total: 1, unread: 1 },
      },
      savedViewsAnswer({ list: 'events', name: 'Лады', query: 'search=lada&severity=critical' }),
    ]);
    const { user } = render();
    await screen.findAllByText('XTA21099072765431');
    expect((screen.getByLabelText('VIN, документ, метка, договор') as HTMLInputElement).value).toBe('xta');
    await user.click(screen.getByRole('button', { name: 'Виды' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Лады' }));
    await waitFor(() =>
      expect((screen.getByLabelText('VIN, документ, метка, договор') as HTMLInputElement).value).toBe('lada'),
    );
    await waitFor(() =>
      expect(
        api.requested.some(
          (url) => url.startsWith(checkEndpoints.events.path) && url.includes('search=lada'),
        ),
      ).toBe(true),
    );
    const asked =
      api.requested.filter((url) => url.startsWith(`${checkEndpoints.events.path}?`)).at(-1) ?? '';
    expect(Object.fromEntries(new URL(asked, 'http://localhost').searchParams)).toMatchObject({
      search: 'lada',
      severity: 'critical',
    });
    expect(asked).not.toContain('source=');
  });
});
