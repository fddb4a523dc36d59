import { cleanup, configure, type RenderResult, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import { createQueryClient } from '@/lib/react-query';
import { AppTestProviders } from './render-route';

// Two shared cores: a screen can take more than the default second to settle.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * Mounts a screen into the DOM (files named `*.dom.test.tsx` with `// @vitest-environment happy-dom`)
 * inside the providers `app/provider.tsx` mounts (the app's QueryClient settings, theme mode, MUI
 * theme, the toast container; the app layer itself is out of reach of `testing/`) and a router at `url`. Returns Testing Library's queries, a
 * `user` that types and clicks as a person does, and the QueryClient, so a test can watch what a
 * mutation invalidates.
 */
export function renderDom({
  element,
  path = '/',
  url = path,
}: {
  element: ReactNode;
  path?: string;
  url?: string;
}): RenderResult & {
  user: ReturnType<typeof userEvent.setup>;
  queryClient: ReturnType<typeof createQueryClient>;
} {
  const queryClient = createQueryClient();
  const result = render(
    <AppTestProviders queryClient={queryClient} path={path} url={url} element={element} toasts />,
  );
  return { ...result, user: userEvent.setup({ delay: null }), queryClient };
}
