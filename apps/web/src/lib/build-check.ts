import { useEffect } from 'react';
import { BUILD_CHECK_INTERVAL_MS, BUILD_ID_STORAGE_KEY } from '@/config/constants';
import { callEndpoint } from './api-client';
import { signedOutEndpoints } from './signed-out-endpoints';

function readStoredBuild(): string | null {
  try {
    return window.localStorage.getItem(BUILD_ID_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Returns true when the page is about to reload onto a newer build. */
export async function checkBuild(): Promise<boolean> {
  let current: string;
  try {
    current = await callEndpoint(signedOutEndpoints.buildInfo);
  } catch {
    // A missed check is harmless; the next tick tries again.
    return false;
  }
  if (typeof current !== 'string' || !current) {
    return false;
  }
  const stored = readStoredBuild();
  if (stored === current) {
    return false;
  }
  window.localStorage.setItem(BUILD_ID_STORAGE_KEY, current);
  // On the very first load nothing is stored yet: the page is already the newest build.
  if (stored === null) {
    return false;
  }
  window.location.reload();
  return true;
}

/** Polls the build id while the tab is visible so open tabs pick up a deployment. */
export function useBuildCheck(): void {
  useEffect(() => {
    let timer: number | undefined;

    const stop = () => {
      if (timer !== undefined) {
        window.clearInterval(timer);
        timer = undefined;
      }
    };
    const start = () => {
      stop();
      void checkBuild();
      timer = window.setInterval(() => void checkBuild(), BUILD_CHECK_INTERVAL_MS);
    };
    const onVisibility = () => {
      if (document.hidden) {
        stop();
      } else {
        start();
      }
    };

    if (!document.hidden) {
      start();
    }
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
}
