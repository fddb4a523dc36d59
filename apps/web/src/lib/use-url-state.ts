import { useCallback, useContext, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
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
  /** The mounted hooks, told when `pending` changes so they show the URL as it will be. */
  listeners: Set<() => void>;
};

// One record per router (the navigator object lives as long as its router), so the memory routers of
// DOM tests do not share it with each other or with the app's browser router.
const states = new WeakMap<object, UrlState>();

const stateOf = (navigator: object, location: Location): UrlState => {
  let state = states.get(navigator);
  if (!state) {
    state = { seen: location, committed: location.search, pending: [], listeners: new Set() };
    states.set(navigator, state);
  }
  return state;
};

/**
 * What is still pending once `search` is rendered: one of ours arrived, so it and the older ones are
 * done and the newer ones are still on their way; anything else (a link, the back button) replaced
 * the URL, and what was pending no longer applies.
 */
const settle = (pending: string[], search: string) => {
  const arrived = pending.lastIndexOf(search);
  return arrived === -1 ? [] : pending.slice(arrived + 1);
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
 * rendered. Two updates in a row therefore both stay, whichever screen part makes them, and the
 * parameters returned are that latest URL from the moment an update is asked for. The setter keeps
 * its identity while the route's pathname stays (as `useNavigate`'s does).
 */
export function useUrlState(): [
  URLSearchParams,
  (update: UrlStateUpdate, options?: NavigateOptions) => void,
] {
  const location = useLocation();
  const navigate = useNavigate();
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const state = stateOf(navigator, location);
  const subscribe = useCallback(
    (listener: () => void) => {
      state.listeners.add(listener);
      return () => {
        state.listeners.delete(listener);
      };
    },
    [state],
  );
  const pendingTip = () => state.pending.at(-1);
  const tip = useSyncExternalStore(subscribe, pendingTip, pendingTip);
  // The screen shows the URL as it will be, so a field bound to it keeps what was typed while the
  // navigation is on its way (React would put the old value back into a controlled input meanwhile).
  // A location not yet settled below (this very render brings it) is settled here without changing
  // anything, so no render shows an update it has replaced.
  const shown =
    (state.seen === location ? tip : settle(state.pending, location.search).at(-1)) ?? location.search;
  const params = useMemo(() => new URLSearchParams(shown), [shown]);

  // Runs at commit, before any handler or effect of that render can ask for an update.
  useLayoutEffect(() => {
    if (state.seen === location) {
      return;
    }
    state.seen = location;
    state.committed = location.search;
    state.pending = settle(state.pending, location.search);
    for (const listener of state.listeners) {
      listener();
    }
  }, [location, state]);

  const setParams = useCallback(
    (update: UrlStateUpdate, options?: NavigateOptions) => {
      const latest = new URLSearchParams(state.pending.at(-1) ?? state.committed);
      const next = asSearch(createSearchParams(typeof update === 'function' ? update(latest) : update));
      state.pending = [...state.pending, next];
      for (const listener of state.listeners) {
        listener();
      }
      void navigate({ search: next }, options);
    },
    [navigate, state],
  );

  return [params, setParams];
}
