import { checkEndpoints, eventsResponseSchema } from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';
import { eventsQueryOptions } from '../api/get-events';
import EventsPage from './events-page';
import { parseEventsView, toEventsQuery } from './use-events-view';

const event = {
  id: '7d0f2c1e-0000-4000-8000-000000000001',
  type: 'pledge_registered_other',
  typeLabel: 'Залог в пользу другого залогодержателя',
  severity: 'high',
  source: 'pledges',
  sourceName: 'Реестр залогов',
  findingKey: 'k1',
  before: null,
  after: { number: '2024-001-123456-789' },
  firstCheck: false,
  demo: false,
  detectedAt: '2026-03-01T09:30:00.000Z',
  read: false,
  runId: null,
  item: {
    id: '7d0f2c1e-0000-4000-8000-000000000002',
    kind: 'vin',
    documentType: null,
    identifier: 'XTA210990Y2765432',
    label: 'Lada 2109',
    contractNumber: 'КД-15/2024',
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('events route', () => {
  it('shows the events the API answers, with the filters from the URL', async () => {
    const api = stubApi([
      {
        path: checkEndpoints.events.path,
        schema: eventsResponseSchema,
        body: { items: [event], total: 1, unread: 1 },
      },
    ]);
    const url = `${paths.monitoringEvents.getHref()}?read=false`;
    const view = parseEventsView(new URL(url, 'http://localhost').searchParams);
    const html = await renderRoute({
      path: paths.monitoringEvents.path,
      url,
      element: <EventsPage />,
      prefetch: (queryClient) => queryClient.prefetchQuery(eventsQueryOptions(toEventsQuery(view))),
    });
    expect(api.requested).toEqual([
      expect.stringMatching(/^\/api\/v1\/monitoring\/events\/items\?.*read=false/),
    ]);
    expect(textsOf(html, 'h1')).toEqual(['События']);
    expect(textsOf(html, 'th')).toEqual(expect.arrayContaining(['Объект', 'Событие', 'Важность']));
    const text = visibleText(html);
    expect(text).toContain('XTA210990Y2765432');
    expect(text).toContain(event.typeLabel);
    expect(text).toContain('Непрочитанных: 1');
    expect(text).toContain('1–1 из 1');
  });

  it('sorts on the server by the column in the URL, and ignores a sort it does not know', async () => {
    const api = stubApi([
      {
        path: checkEndpoints.events.path,
        schema: eventsResponseSchema,
        body: { items: [event], total: 1, unread: 1 },
      },
    ]);
    const url = `${paths.monitoringEvents.getHref()}?sort=severity&order=asc`;
    const view = parseEventsView(new URL(url, 'http://localhost').searchParams);
    const html = await renderRoute({
      path: paths.monitoringEvents.path,
      url,
      element: <EventsPage />,
      prefetch: (queryClient) => queryClient.prefetchQuery(eventsQueryOptions(toEventsQuery(view))),
    });
    expect(api.requested).toEqual([
      expect.stringMatching(/^\/api\/v1\/monitoring\/events\/items\?.*sort=severity&order=asc/),
    ]);
    // The sorted header, and only it, carries aria-sort.
    expect(html).toMatch(/<th[^>]*aria-sort="ascending"[^>]*>(?:(?!<\/th>).)*Важность/s);
    expect(html.match(/aria-sort=/g)).toHaveLength(1);
    const unknown = parseEventsView(new URLSearchParams('sort=item&order=sideways'));
    expect(toEventsQuery(unknown)).not.toHaveProperty('sort');
  });
});
