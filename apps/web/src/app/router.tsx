import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useMemo } from 'react';
import {
  createBrowserRouter,
  type LoaderFunction,
  matchRoutes,
  type RouteObject,
  RouterProvider,
  redirect,
} from 'react-router';
import { getAuthHref, paths } from '@/config/paths';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { mayHaveSession } from '@/lib/auth-token';
import { listenForPreloadErrors, withChunkReload } from '@/lib/chunk-reload';
import { createPreloadQueue } from '@/lib/preload-queue';
import { RoutePreloadContext } from '@/lib/route-preload';
import { AppRoot, AppRootFallback } from './routes/root';
import { RouteError } from './routes/route-error';

type RouteModule = {
  default: ComponentType;
  clientLoader?: (queryClient: QueryClient) => LoaderFunction;
};

/**
 * A lazy route: the module is fetched on first visit (or preloaded), a failed chunk load reloads the
 * page, and a `clientLoader(queryClient)` export becomes the route's loader.
 */
const lazyRoute = (queryClient: QueryClient, load: () => Promise<RouteModule>, signedIn = false) =>
  withChunkReload(async () => {
    const { default: Component, clientLoader } = await load();
    if (!clientLoader) {
      return { Component };
    }
    const loader = clientLoader(queryClient);
    return { Component, loader: signedIn ? afterSignInCheck(queryClient, loader) : loader };
  });

/**
 * A signed-in screen's loader runs only once the layout's check of the current user has passed.
 * React Router runs every matched loader at once, so without this a signed-out visit would ask for
 * the screen's data (and get a 401) before the layout's redirect to sign-in.
 */
const afterSignInCheck =
  (queryClient: QueryClient, loader: LoaderFunction): LoaderFunction =>
  async (args, context) => {
    if (!mayHaveSession()) {
      return null;
    }
    try {
      await queryClient.ensureQueryData(meQueryOptions());
    } catch {
      // The layout's loader turns the same failure into the redirect (or the error page).
      return null;
    }
    return loader(args, context);
  };

/** An index route that only forwards to its first tab (a Component silences the empty-leaf warning). */
const redirectIndex = (path: string): RouteObject => ({
  index: true,
  loader: () => redirect(path),
  Component: () => null,
});

export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  const lazy = (load: () => Promise<RouteModule>) => lazyRoute(queryClient, load);
  /** Every screen under the default layout needs the sign-in check first (see afterSignInCheck). */
  const signedIn = (load: () => Promise<RouteModule>) => lazyRoute(queryClient, load, true);

  return [
    {
      id: 'root',
      Component: AppRoot,
      HydrateFallback: AppRootFallback,
      ErrorBoundary: RouteError,
      children: [
        {
          id: 'auth-layout',
          lazy: lazy(() => import('./routes/auth/layout')),
          children: [
            { path: paths.auth.path, lazy: lazy(() => import('./routes/auth/login')) },
            { path: paths.resetPassword.path, lazy: lazy(() => import('./routes/auth/reset-password')) },
          ],
        },
        {
          id: 'default-layout',
          lazy: lazy(() => import('./routes/app/root')),
          children: [
            { index: true, lazy: signedIn(() => import('@/features/dashboard/components/dashboard-page')) },
            { path: paths.news.path, lazy: signedIn(() => import('@/features/news/components/news-page')) },
            { path: paths.settings.path, lazy: signedIn(() => import('./routes/app/settings')) },
            { path: paths.verifyEmail.path, lazy: signedIn(() => import('./routes/app/verify-email')) },
            { path: paths.authVerifyEmail.path, lazy: signedIn(() => import('./routes/app/verify-email')) },
            {
              path: paths.monitoringItems.path,
              lazy: signedIn(() => import('@/features/monitoring-items/components/items-page')),
            },
            {
              path: paths.monitoringUpload.path,
              lazy: signedIn(() => import('@/features/monitoring-upload/components/upload-layout')),
              children: [
                redirectIndex(paths.monitoringUploadForm.path),
                {
                  path: paths.monitoringUploadForm.path,
                  lazy: signedIn(() => import('@/features/monitoring-upload/components/upload-form-page')),
                },
                {
                  path: paths.monitoringUploadTable.path,
                  lazy: signedIn(() => import('@/features/monitoring-upload/components/upload-table-page')),
                },
              ],
            },
            {
              path: paths.monitoringUploadsHistory.path,
              lazy: signedIn(() => import('@/features/uploads-history/components/uploads-history-page')),
            },
            {
              path: paths.monitoringNotifications.path,
              lazy: signedIn(() => import('@/features/notifications/components/notifications-page')),
            },
            {
              path: paths.monitoringStatistics.path,
              lazy: signedIn(() => import('@/features/statistics/components/statistics-page')),
            },
            {
              path: paths.monitoringReport.path,
              lazy: signedIn(() => import('@/features/report/components/report-page')),
            },
            {
              path: paths.oneTimeCheck.path,
              lazy: signedIn(() => import('@/features/one-time-check/components/one-time-check-page')),
            },
            {
              path: paths.oneTimeCheckTable.path,
              lazy: signedIn(() => import('@/features/one-time-check/components/check-history-page')),
            },
            {
              path: paths.oneTimeCheckResults.path,
              lazy: signedIn(() => import('@/features/one-time-check/components/check-results-page')),
            },
            {
              path: paths.oneTimeCheckDocument.path,
              lazy: signedIn(() => import('@/features/one-time-check/components/check-document-page')),
            },
            {
              path: paths.monitoringEvents.path,
              lazy: signedIn(() => import('@/features/events/components/events-page')),
            },
            {
              path: paths.monitoringChecks.path,
              lazy: signedIn(() => import('@/features/checks/components/checks-page')),
            },
            {
              path: paths.pledgesUploadEvents.path,
              lazy: signedIn(() => import('@/features/pledge-upload-events/components/upload-events-layout')),
              children: [
                redirectIndex(paths.pledgesUploadEventsForm.path),
                {
                  path: paths.pledgesUploadEventsForm.path,
                  lazy: signedIn(
                    () => import('@/features/pledge-upload-events/components/upload-events-form-page'),
                  ),
                },
                {
                  path: paths.pledgesUploadEventsTable.path,
                  lazy: signedIn(
                    () => import('@/features/pledge-upload-events/components/upload-events-table-page'),
                  ),
                },
              ],
            },
            {
              path: paths.pledgesEventsRegistry.path,
              lazy: signedIn(
                () => import('@/features/pledge-events-registry/components/events-registry-layout'),
              ),
              children: [
                redirectIndex(paths.pledgesEventsRegistryTable.path),
                {
                  path: paths.pledgesEventsRegistryTable.path,
                  lazy: signedIn(
                    () => import('@/features/pledge-events-registry/components/events-table-page'),
                  ),
                },
                {
                  path: paths.pledgesEventsRegistryPackages.path,
                  lazy: signedIn(() => import('@/features/pledge-events-registry/components/packages-page')),
                },
              ],
            },
          ],
        },
        { path: '*', lazy: lazy(() => import('./routes/not-found')) },
      ],
    },
  ];
}

/**
 * Loads the code of every route a path matches. Each lazy route is its own task (one route chunk),
 * so the queue's limit of four holds for the chunk files in flight, not only for paths.
 */
function createRoutePreloader(routes: RouteObject[]) {
  const queue = createPreloadQueue<unknown>();
  return (path: string, urgent = true) => {
    for (const { route } of matchRoutes(routes, path) ?? []) {
      const load = route.lazy;
      if (typeof load === 'function') {
        queue.add(load, () => load(), urgent);
      }
    }
  };
}

export function AppRouter({ queryClient }: { queryClient: QueryClient }): ReactNode {
  const { router, preload } = useMemo(() => {
    const routes = createAppRoutes(queryClient);
    const appRouter = createBrowserRouter(routes);
    // Registered here, not in an effect: the first loaders are already running and may get a 401.
    let redirecting = false;
    setUnauthorizedHandler((redirectTo) => {
      // Several calls can fail at once; one redirect is enough.
      if (redirecting) {
        return;
      }
      redirecting = true;
      void appRouter.navigate(getAuthHref(redirectTo), { replace: true }).finally(() => {
        // Another user may sign in next, so no data of this session survives. Cleared only after the
        // signed-in screens unmount, or they would refetch at once.
        queryClient.clear();
        redirecting = false;
      });
    });
    return { router: appRouter, preload: createRoutePreloader(routes) };
  }, [queryClient]);

  useEffect(() => listenForPreloadErrors(), []);

  return (
    <RoutePreloadContext.Provider value={preload}>
      <RouterProvider router={router} />
    </RoutePreloadContext.Provider>
  );
}
