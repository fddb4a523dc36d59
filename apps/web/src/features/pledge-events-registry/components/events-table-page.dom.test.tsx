// @vitest-environment happy-dom
import { pledgeEndpoints, pledgeEventsResponseSchema } from '@pledgewatch/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { meAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import EventsTablePage from './events-table-page';

/** The URL's query string as the router holds it, for the test to read. */
function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

const stub = () =>
  stubApi([
    meAnswer('analyst'),
    {
      method: 'GET',
      path: pledgeEndpoints.events.path,
      schema: pledgeEventsResponseSchema,
      body: { items: [], total: 0 },
    },
  ]);

const render = (query: string) =>
  renderDom({
    path: paths.pledgesEventsRegistryTable.path,
    url: `${paths.pledgesEventsRegistryTable.getHref()}${query}`,
    element: (
      <>
        <EventsTablePage />
        <Search />
      </>
    ),
  });

const listReads = (api: ReturnType<typeof stub>) =>
  api.requested.filter((url) => url.startsWith(`${pledgeEndpoints.events.path}?`));

describe('pledge registry: the filters live in the URL', () => {
  it('opens with the filters of its link and asks the server for them', async () => {
    const api = stub();
    render('?kind=exclusion&vin=XTA21&lapsing=true&page=2&pageSize=50');
    expect(((await screen.findByLabelText('VIN')) as HTMLInputElement).value).toBe('XTA21');
    await waitFor(() => expect(listReads(api).length).toBeGreaterThan(0));
    const asked = new URL(listReads(api).at(-1) ?? '', 'http://localhost').searchParams;
    expect(Object.fromEntries(asked)).toEqual({
      kind: 'exclusion',
      vin: 'XTA21',
      lapsing: 'true',
      page: '2',
      pageSize: '50',
    });
  });

  it('writes a changed filter into the URL (back to page 1) and the reset takes them all out', async () => {
    const api = stub();
    const { user } = render('?status=sent&page=3');
    await user.type(await screen.findByLabelText('Залогодатель'), 'Иванов');
    await waitFor(() =>
      expect(new URLSearchParams(screen.getByTestId('search').textContent ?? '').get('pledgor')).toBe(
        'Иванов',
      ),
    );
    const search = new URLSearchParams(screen.getByTestId('search').textContent ?? '');
    expect(search.get('status')).toBe('sent');
    expect(search.has('page')).toBe(false);
    await waitFor(() =>
      expect(listReads(api).some((url) => url.includes('pledgor=%D0%98%D0%B2%D0%B0%D0%BD%D0%BE%D0%B2'))).toBe(
        true,
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Сбросить' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(''));
  });

  it('keeps a typed VIN when the «Истекает срок» switch is clicked before the page renders again (#24)', async () => {
    const api = stub();
    render('?page=2');
    const vin = await screen.findByLabelText('VIN');
    const lapsing = screen.getByLabelText('Истекает срок');
    // One act: both events land before React renders the first URL change, as a fast person (or a
    // router navigation still in its transition) makes them; the second must build on the first.
    act(() => {
      fireEvent.change(vin, { target: { value: 'XTA' } });
      fireEvent.click(lapsing);
    });
    const search = () =>
      Object.fromEntries(new URLSearchParams(screen.getByTestId('search').textContent ?? ''));
    await waitFor(() => expect(search()).toEqual({ vin: 'XTA', lapsing: 'true' }));
    await waitFor(() =>
      expect(listReads(api).some((url) => url.includes('vin=XTA') && url.includes('lapsing=true'))).toBe(
        true,
      ),
    );
    expect((screen.getByLabelText('VIN') as HTMLInputElement).value).toBe('XTA');
  }, 15_000);
});
