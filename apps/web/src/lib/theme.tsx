import { ruRU } from '@mui/material/locale';
import { createTheme, type Theme } from '@mui/material/styles';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import {
  BREAKPOINTS,
  DEFAULT_THEME_PREFERENCE,
  PREFERENCE_COOKIE_MAX_AGE_S,
  SERVER_THEME_COOKIE,
  THEME_COOKIE,
  THEME_PREFERENCES,
} from '@/config/constants';
import { getCookie, setCookie } from './cookies';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const isPreference = (value: string | null | undefined): value is ThemePreference =>
  THEME_PREFERENCES.some((preference) => preference === value);

const isResolved = (value: string | null | undefined): value is ResolvedTheme =>
  value === 'light' || value === 'dark';

function readPreference(): ThemePreference {
  const stored = getCookie(THEME_COOKIE);
  return isPreference(stored) ? stored : DEFAULT_THEME_PREFERENCE;
}

function systemTheme(): ResolvedTheme {
  if (typeof window.matchMedia !== 'function') {
    // The server's guess from the serverTheme cookie, written onto <html data-theme>.
    const fromServer = document.documentElement.dataset.theme;
    return isResolved(fromServer) ? fromServer : 'light';
  }
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

function initialResolved(preference: ThemePreference): ResolvedTheme {
  if (preference !== 'auto') {
    return preference;
  }
  return systemTheme();
}

/** auto → light → dark → auto, as the seed describes. */
export function nextPreference(current: ThemePreference): ThemePreference {
  const index = THEME_PREFERENCES.indexOf(current);
  return THEME_PREFERENCES[(index + 1) % THEME_PREFERENCES.length] ?? DEFAULT_THEME_PREFERENCE;
}

export function createAppTheme(mode: ResolvedTheme): Theme {
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: mode === 'dark' ? '#7aa7ff' : '#1f4fbf' },
        background: mode === 'dark' ? { default: '#121212', paper: '#1a1a1a' } : { default: '#f5f6f8' },
      },
      breakpoints: { values: BREAKPOINTS },
      shape: { borderRadius: 8 },
      components: {
        // Sentence case reads better in Russian than the default upper case.
        MuiButton: {
          defaultProps: { disableElevation: true },
          styleOverrides: { root: { textTransform: 'none' } },
        },
        // Toggle buttons too: «Документ», not «ДОКУМЕНТ», as the same word reads everywhere else.
        MuiToggleButton: { styleOverrides: { root: { textTransform: 'none' } } },
        MuiTab: { styleOverrides: { root: { textTransform: 'none', fontSize: '0.95rem' } } },
        MuiTextField: { defaultProps: { fullWidth: true } },
      },
    },
    ruRU,
  );
}

type ThemeModeContextValue = {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
  cyclePreference: () => void;
};

const ThemeModeContext = createContext<ThemeModeContextValue | null>(null);

export function ThemeModeProvider({ children }: { children: (resolved: ResolvedTheme) => ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(readPreference);
  const [system, setSystem] = useState<ResolvedTheme>(() => initialResolved('auto'));
  const resolved: ResolvedTheme = preference === 'auto' ? system : preference;

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') {
      return;
    }
    const media = window.matchMedia(DARK_QUERY);
    const onChange = () => setSystem(media.matches ? 'dark' : 'light');
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    // serverTheme lets the server render <html data-theme> so the next first paint matches.
    setCookie(SERVER_THEME_COOKIE, resolved, { maxAgeSeconds: PREFERENCE_COOKIE_MAX_AGE_S });
    document.documentElement.dataset.theme = resolved;
  }, [resolved]);

  const setPreference = useCallback((next: ThemePreference) => {
    setCookie(THEME_COOKIE, next, { maxAgeSeconds: PREFERENCE_COOKIE_MAX_AGE_S });
    setPreferenceState(next);
  }, []);

  const value = useMemo<ThemeModeContextValue>(
    () => ({
      preference,
      resolved,
      setPreference,
      cyclePreference: () => setPreference(nextPreference(preference)),
    }),
    [preference, resolved, setPreference],
  );

  return <ThemeModeContext.Provider value={value}>{children(resolved)}</ThemeModeContext.Provider>;
}

export function useThemeMode(): ThemeModeContextValue {
  const value = useContext(ThemeModeContext);
  if (!value) {
    throw new Error('useThemeMode must be used inside ThemeModeProvider');
  }
  return value;
}
