import { buildPath, type LayoutName, ROUTES, type RouteName } from '@pledgewatch/contract';

type PathEntry<P extends string> = {
  path: P;
  layout: LayoutName;
  getHref: (params?: Record<string, string | number>) => string;
};

type Paths = { [K in RouteName]: PathEntry<(typeof ROUTES)[K]['path']> };

/** Every URL of the app, built from the contract's route table. */
export const paths = Object.fromEntries(
  Object.entries(ROUTES).map(([name, route]) => [
    name,
    {
      path: route.path,
      layout: route.layout,
      getHref: (params?: Record<string, string | number>) => buildPath(route.path, params),
    },
  ]),
) as Paths;

export const REDIRECT_PARAM = 'redirectTo';

/** Search params of the delivery log on the notifications page, so other screens can open it filtered. */
export const DELIVERY_LOG_PARAMS = {
  status: 'deliveryStatus',
  page: 'deliveryPage',
  pageSize: 'deliveryPageSize',
} as const;

/**
 * Only the sign-in page itself is not worth returning to; /auth/verify-email (a default-layout child
 * of /auth) is, or its single-use token would be lost on the way through sign-in.
 */
const isSignInPage = (target: string): boolean => {
  const pathname = target.split(/[?#]/, 1)[0]?.replace(/\/+$/, '') ?? '';
  return pathname === paths.auth.path;
};

/** The sign-in URL, remembering where the user was heading. */
export function getAuthHref(redirectTo?: string | null): string {
  if (!redirectTo || redirectTo === '/' || isSignInPage(redirectTo)) {
    return paths.auth.path;
  }
  return `${paths.auth.path}?${new URLSearchParams({ [REDIRECT_PARAM]: redirectTo })}`;
}

/** Only same-origin paths are accepted as a post-sign-in target. */
export function safeRedirectTarget(value: string | null): string {
  if (value?.startsWith('/') && !value.startsWith('//')) {
    return value;
  }
  return paths.home.path;
}
