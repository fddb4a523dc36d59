import { useSyncExternalStore } from 'react';

/**
 * Whether the toast container (react-toastify) should be mounted. The sign-in page never shows a
 * toast, so the library is fetched only once something asks for it: the signed-in layout, or a
 * signed-out screen about to show one. Toasts raised before the container mounts wait in
 * react-toastify's queue and appear when it does.
 */
let requested = false;
const listeners = new Set<() => void>();

export function requestToastHost(): void {
  if (requested) {
    return;
  }
  requested = true;
  for (const listener of listeners) {
    listener();
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const useToastHostRequested = (): boolean => useSyncExternalStore(subscribe, () => requested);

/** A success toast from code that runs before sign-in, without loading react-toastify up front. */
export function showSuccessToast(message: string): void {
  requestToastHost();
  import('react-toastify')
    .then(({ toast }) => toast.success(message))
    .catch(() => {
      // Only a courtesy message: the screen has already moved on, nothing to undo.
    });
}
