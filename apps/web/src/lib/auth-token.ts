import { AUTH_COOKIE, AUTH_COOKIE_MAX_AGE_S } from '@/config/constants';
import { deleteCookie, getCookie, setCookie } from './cookies';

export const getAuthToken = (): string | null => getCookie(AUTH_COOKIE);

export const setAuthToken = (token: string): void =>
  setCookie(AUTH_COOKIE, token, { maxAgeSeconds: AUTH_COOKIE_MAX_AGE_S });

export const clearAuthToken = (): void => deleteCookie(AUTH_COOKIE);
