import { useEffect } from 'react';
import {
  DEFAULT_WINDOW_HEIGHT,
  DEFAULT_WINDOW_WIDTH,
  PREFERENCE_COOKIE_MAX_AGE_S,
  WINDOW_HEIGHT_COOKIE,
  WINDOW_SIZE_DEBOUNCE_MS,
  WINDOW_WIDTH_COOKIE,
} from '@/config/constants';
import { getCookie, setCookie } from './cookies';

export type WindowSize = { width: number; height: number };

/** The last known window size; the defaults stand in before the first measurement. */
export function getStoredWindowSize(): WindowSize {
  const width = Number(getCookie(WINDOW_WIDTH_COOKIE));
  const height = Number(getCookie(WINDOW_HEIGHT_COOKIE));
  return {
    width: Number.isFinite(width) && width > 0 ? width : DEFAULT_WINDOW_WIDTH,
    height: Number.isFinite(height) && height > 0 ? height : DEFAULT_WINDOW_HEIGHT,
  };
}

function storeWindowSize(): void {
  setCookie(WINDOW_WIDTH_COOKIE, String(window.innerWidth), { maxAgeSeconds: PREFERENCE_COOKIE_MAX_AGE_S });
  setCookie(WINDOW_HEIGHT_COOKIE, String(window.innerHeight), { maxAgeSeconds: PREFERENCE_COOKIE_MAX_AGE_S });
}

/** Keeps the window-size cookies current so the server can size what it renders or exports. */
export function useWindowSizeCookies(): void {
  useEffect(() => {
    storeWindowSize();
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(storeWindowSize, WINDOW_SIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
}
