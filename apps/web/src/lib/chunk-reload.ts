import { CHUNK_RELOAD_GUARD_MS, CHUNK_RELOAD_STORAGE_KEY } from '@/config/constants';

/**
 * After a deployment the old chunk files are gone; a reload fetches the new ones. The guard stops a
 * reload loop when the chunk is missing for another reason.
 */
export function reloadOnceForChunkError(): boolean {
  const now = Date.now();
  let last = 0;
  try {
    last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY)) || 0;
    if (now - last < CHUNK_RELOAD_GUARD_MS) {
      return false;
    }
    window.sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** Wraps a dynamic import so a failed chunk load reloads the page instead of erroring. */
export function withChunkReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (reloadOnceForChunkError()) {
        // The page is going away; never settle so no error screen flashes first.
        return new Promise<T>(() => {});
      }
      throw error;
    });
}

/** Vite reports failed preloads of a chunk's dependencies through this event. */
export function listenForPreloadErrors(): () => void {
  const onError = (event: Event) => {
    if (reloadOnceForChunkError()) {
      event.preventDefault();
    }
  };
  window.addEventListener('vite:preloadError', onError);
  return () => window.removeEventListener('vite:preloadError', onError);
}
