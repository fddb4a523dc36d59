import { createContext, useContext, useEffect } from 'react';

/** `urgent` (hover, focus) jumps ahead of background preloads. */
type PreloadRoute = (path: string, urgent?: boolean) => void;

/** The router provides the real preloader; components only know they can ask for one. */
export const RoutePreloadContext = createContext<PreloadRoute>(() => {});

export const usePreloadRoute = (): PreloadRoute => useContext(RoutePreloadContext);

/**
 * Fetches the code of `paths` in the background once the browser is idle. Called by the signed-in
 * layout only: before sign-in nobody needs those screens, and the sign-in page must stay light.
 */
export function usePreloadInBackground(paths: readonly string[]): void {
  const preload = usePreloadRoute();
  useEffect(() => {
    const schedule = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1500));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = schedule(() => {
      for (const path of paths) {
        preload(path, false);
      }
    });
    return () => cancel(handle);
  }, [preload, paths]);
}
