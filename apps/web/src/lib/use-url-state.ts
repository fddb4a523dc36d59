import { useCallback, useContext, useLayoutEffect, useMemo } from 'react';
import {
  createSearchParams,
  type Location,
  type NavigateOptions,
  UNSAFE_NavigationContext,
  type URLSearchParamsInit,
  useLocation,
  useNavigate,
} from 'react-router';

/**
 * What one router has been asked to show but has not rendered yet. React Router's own
 * `setSearchParams(fn)` hands `fn` the query string of the render that made the callback, so a second
 * update made before the first one renders (a VIN typed, then a switch clicked while the first
 * navigation is still loading or in its React transition) is built on the old URL and drops the first.
 */
type UrlState = {
  /** The location last committed to the screen (the same object every consumer sees). */
  seen: Location | undefined;
  /** Its query string, the base when nothing is pending. */
  committed: string;
  /** Query strings asked for since, oldest first; the last one is the URL as it will be. */
  pending: string[];
};

// One record per router (the navigator object lives as long as its router), so the memory routers of
// DOM tests do not share it with each other or with the app's browser router.
const states = new WeakMap<object, UrlState>();

const stateOf = (navigator: object, location: Location): UrlState => {
  let state = states.get(navigator);
  if (!state) {
    state = { seen: location, committed: location.search, pending: [] };
    states.set(navigator, state);
  }
  return state;
};

const asSearch = (params: URLSearchParams) => {
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** How a URL update is given: the next parameters from the latest ones, or the whole next set. */
export type UrlStateUpdate = URLSearchParamsInit | ((latest: URLSearchParams) => URLSearchParamsInit);

/**
 * The query string of the current route, like React Router's `useSearchParams`, with a setter that
 * builds each update on the latest URL: the one rendered, or the last update asked for and not yet
 * rendered. Two updates in a row therefore both stay, whichever screen part makes them. The setter
 * keeps its identity while the route's pathname stays (as `useNavigate`'s does).
 */
export function useUrlState(): [
  URLSearchParams,
  (update: UrlStateUpdate, options?: NavigateOptions) => void,
] {
  const location = useLocation();
  const navigate = useNavigate();
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const state = stateOf(navigator, location);
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);

  // Runs at commit, before any handler or effect of that render can ask for an update.
  useLayoutEffect(() => {
    if (state.seen === location) {
      return;
    }
    state.seen = location;
    state.committed = location.search;
    const arrived = state.pending.lastIndexOf(location.search);
    // One of ours arrived: it and the older ones are done, the newer ones are still on their way.
    // Anything else (a link, the back button) replaced the URL: what was pending no longer applies.
    state.pending = arrived === -1 ? [] : state.pending.slice(arrived + 1);
  }, [location, state]);

  const setParams = useCallback(
    (update: UrlStateUpdate, options?: NavigateOptions) => {
      const latest = new URLSearchParams(state.pending.at(-1) ?? state.committed);
      const next = asSearch(createSearchParams(typeof update === 'function' ? update(latest) : update));
      state.pending.push(next);
      void navigate({ search: next }, options);
    },
    [navigate, state],
  );

  return [params, setParams];
}
