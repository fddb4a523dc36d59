/** Platform constants from the seed spec (section 9). Change them here only. */

/** Set, refreshed and cleared by the server only (HttpOnly); the page never sees the token. */
export const AUTH_COOKIE = 'auth_token';
export const THEME_COOKIE = 'theme';
export const SERVER_THEME_COOKIE = 'serverTheme';
export const WINDOW_WIDTH_COOKIE = 'windowWidth';
export const WINDOW_HEIGHT_COOKIE = 'windowHeight';

export const PREFERENCE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export const DEFAULT_WINDOW_WIDTH = 1400;
export const DEFAULT_WINDOW_HEIGHT = 900;
export const WINDOW_SIZE_DEBOUNCE_MS = 300;

export const BUILD_CHECK_INTERVAL_MS = 20000;
export const BUILD_ID_STORAGE_KEY = 'pledgewatch.buildId';

export const CHUNK_RELOAD_GUARD_MS = 10000;
export const CHUNK_RELOAD_STORAGE_KEY = 'pledgewatch.chunkReloadAt';

export const ROUTE_PRELOAD_CONCURRENCY = 4;

export const TOAST_OPTIONS = {
  autoClose: 3000,
  position: 'bottom-center',
  hideProgressBar: true,
  closeOnClick: false,
  // The library's default names the region in English («Notifications Alt+T»); Alt+T still focuses it.
  'aria-label': 'Уведомления (Alt+T)',
} as const;

export const LOADING_BAR = {
  throttleMs: 200,
  durationMs: 2000,
  hideDelayMs: 500,
  resetDelayMs: 400,
} as const;

export const BREAKPOINTS = {
  xs: 0,
  sm: 600,
  md: 960,
  lg: 1280,
  xl: 1920,
  xxl: 2560,
} as const;

export const THEME_PREFERENCES = ['auto', 'light', 'dark'] as const;
export const DEFAULT_THEME_PREFERENCE = 'auto';

export const PAGE_TRANSITION_MS = 200;
export const SEARCH_DEBOUNCE_MS = 400;
export const DEFAULT_PAGE_SIZE = 25;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100];
export const DRAWER_WIDTH = 272;

/** How often a running upload is asked for its progress. */
export const UPLOAD_POLL_MS = 1000;
