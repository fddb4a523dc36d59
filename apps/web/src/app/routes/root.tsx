import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { LoadingBar } from '@/components/ui/loading-bar';
import { useBuildCheck } from '@/lib/build-check';
import { useWindowSizeCookies } from '@/lib/window-size';

/** The shell around every screen: loading bar, background checks, then the layout. */
export function AppRoot() {
  const navigation = useNavigation();
  // Only first loads count: background refetches (polling, focus) must not flash the bar.
  const loadingQueries = useIsFetching({ predicate: (query) => query.state.data === undefined });
  const mutations = useIsMutating();
  useBuildCheck();
  useWindowSizeCookies();

  return (
    <>
      <LoadingBar active={navigation.state !== 'idle' || loadingQueries > 0 || mutations > 0} />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/** Shown while the first route's code loads. */
export function AppRootFallback() {
  return <LoadingBar active />;
}
