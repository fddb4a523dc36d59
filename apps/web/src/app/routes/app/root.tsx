import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { DefaultLayout } from '@/components/layouts/default-layout';
import { NAV_HREFS, type NavBadges } from '@/components/layouts/nav-items';
import { getAuthHref, paths } from '@/config/paths';
import { NewsUnreadBadge } from '@/features/news/components/news-unread-badge';
import { HeaderSearch } from '@/features/search/components/header-search';
import { isApiError } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { mayHaveSession } from '@/lib/auth-token';
import { usePreloadInBackground } from '@/lib/route-preload';
import { requestToastHost } from '@/lib/toast-host';

/** Every default-layout screen needs a signed-in user; the user is loaded before the layout renders. */
export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const authHref = getAuthHref(`${url.pathname}${url.search}`);
    if (!mayHaveSession()) {
      throw redirect(authHref);
    }
    try {
      await queryClient.ensureQueryData(meQueryOptions());
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        throw redirect(authHref);
      }
      throw error;
    }
    return null;
  };

const NAV_BADGES: NavBadges = { [paths.news.getHref()]: NewsUnreadBadge };

export default function DefaultLayoutRoute() {
  // The loader has the signed-in user by now: only from here on are the sections worth fetching.
  usePreloadInBackground(NAV_HREFS);
  // Signed-in screens show toasts (saved, deleted, failed…): mount the container.
  useEffect(requestToastHost, []);
  return <DefaultLayout navBadges={NAV_BADGES} search={<HeaderSearch />} />;
}
