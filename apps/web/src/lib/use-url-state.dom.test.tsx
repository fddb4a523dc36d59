// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useUrlState } from './use-url-state';

afterEach(cleanup);

type Setter = ReturnType<typeof useUrlState>[1];

/** Sets or removes one parameter; any change but the page itself goes back to page 1, as the lists do. */
const patch = (key: string, value: string | null) => (latest: URLSearchParams) => {
  const next = new URLSearchParams(latest);
  if (value === null) {
    next.delete(key);
  } else {
    next.set(key, value);
  }
  if (key !== 'page') {
    next.delete('page');
  }
  return next;
};

/** Two independent parts of one screen, each with its own hook, as a list and its saved-views menu. */
const setters: { filters?: Setter; menu?: Setter; navigate?: ReturnType<typeof useNavigate> } = {};

function Filters() {
  const [params, setParams] = useUrlState();
  setters.filters = setParams;
  setters.navigate = useNavigate();
  return (
    <>
      <output data-testid="rendered">{params.toString()}</output>
      <input
        aria-label="VIN"
        value={params.get('vin') ?? ''}
        onChange={(event) => setParams(patch('vin', event.target.value || null))}
      />
    </>
  );
}

function Menu() {
  setters.menu = useUrlState()[1];
  return null;
}

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

const screenParts = (
  <>
    <Filters />
    <Menu />
    <Search />
  </>
);

const search = () => Object.fromEntries(new URLSearchParams(screen.getByTestId('search').textContent ?? ''));

/**
 * The screen under a data router (the app's kind) whose every navigation with a query string waits
 * for its loader until released: the navigation is still under way when the next update is asked for,
 * as on a busy machine in the app.
 */
function renderLoadingRouter() {
  const held: { release: () => void } = { release: () => undefined };
  const router = createMemoryRouter(
    [
      {
        path: '/list',
        loader: ({ request }) =>
          new URL(request.url).search === ''
            ? null
            : new Promise<null>((resolve) => {
                held.release = () => resolve(null);
              }),
        element: screenParts,
      },
    ],
    { initialEntries: ['/list'] },
  );
  render(<RouterProvider router={router} />);
  return { router, release: () => act(() => held.release()) };
}

describe('useUrlState: every update builds on the latest URL', () => {
  it('keeps two patches made in one tick, from one part or two, and still resets the page', async () => {
    render(<MemoryRouter initialEntries={['/list?status=sent&page=3']}>{screenParts}</MemoryRouter>);
    // No render between the calls: React Router's own setter would give both the same old URL.
    act(() => {
      setters.filters?.(patch('vin', 'XTA'));
      setters.filters?.(patch('lapsing', 'true'));
      setters.menu?.(patch('sort', 'vin'));
    });
    await waitFor(() =>
      expect(search()).toEqual({ status: 'sent', vin: 'XTA', lapsing: 'true', sort: 'vin' }),
    );
    expect(screen.getByTestId('rendered').textContent).toBe('status=sent&vin=XTA&lapsing=true&sort=vin');

    act(() => {
      setters.filters?.(patch('page', '4'));
      setters.filters?.(patch('vin', null));
    });
    // The filter change after the page change takes the page away again.
    await waitFor(() => expect(search()).toEqual({ status: 'sent', lapsing: 'true', sort: 'vin' }));
  });

  it('takes a whole new set of parameters, and a navigation made elsewhere replaces what was pending', async () => {
    render(<MemoryRouter initialEntries={['/list?a=1']}>{screenParts}</MemoryRouter>);
    act(() => {
      setters.filters?.(patch('b', '2'));
      // A link or a saved view changes the URL outside the hook: the pending `b` is gone with it.
      void setters.navigate?.('?c=3');
    });
    await waitFor(() => expect(search()).toEqual({ c: '3' }));
    act(() => {
      setters.filters?.(patch('d', '4'));
      setters.menu?.({ e: '5' });
      setters.filters?.(patch('f', '6'));
    });
    await waitFor(() => expect(search()).toEqual({ e: '5', f: '6' }));
  });

  it('keeps both updates while a data router is still loading the first (the app’s router)', async () => {
    const { router, release } = renderLoadingRouter();
    await screen.findByTestId('search');
    act(() => setters.filters?.(patch('vin', 'XTA')));
    // Rendered and committed nowhere yet: the router is waiting for its loader.
    expect(router.state.navigation.state).toBe('loading');
    expect(search()).toEqual({});
    act(() => setters.filters?.(patch('lapsing', 'true')));
    release();
    await waitFor(() => expect(search()).toEqual({ vin: 'XTA', lapsing: 'true' }));
    expect(router.state.location.search).toBe('?vin=XTA&lapsing=true');
  });

  it('shows an update at once, so a field bound to the URL keeps every key typed while the router loads', async () => {
    const { release } = renderLoadingRouter();
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('VIN'), 'XTA');
    // Nothing has reached the router's location yet, and the field and the parameters show it all.
    expect(search()).toEqual({});
    expect((screen.getByLabelText('VIN') as HTMLInputElement).value).toBe('XTA');
    expect(screen.getByTestId('rendered').textContent).toBe('vin=XTA');
    release();
    await waitFor(() => expect(search()).toEqual({ vin: 'XTA' }));
    expect(screen.getByTestId('rendered').textContent).toBe('vin=XTA');
  });
});
