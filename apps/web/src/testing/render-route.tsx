import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';
import type { z } from 'zod';
import { TOAST_OPTIONS } from '@/config/constants';
import { createQueryClient } from '@/lib/react-query';
import { createAppTheme, ThemeModeProvider } from '@/lib/theme';

/** One stubbed API answer: the body is parsed by the contract's schema, so it has the server's shape. */
export type StubAnswer = {
  path: string;
  schema: z.ZodType;
  body: unknown;
  /** Answers only this method (a list and its create share a path); without it, any method. */
  method?: string;
  /** The HTTP status (200 by default); a 4xx body is the server's error shape. */
  status?: number;
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** One request as the app sent it: method, path with its query string, and the JSON body if any. */
export type SentCall = { method: string; url: string; body: unknown };

/**
 * Stubs `fetch` with answers by path (the query string is ignored) and records the URLs asked
 * for; anything else answers 404 so a missing stub shows in the test.
 */
export function stubApi(answers: StubAnswer[]): { requested: string[]; sent: unknown[]; calls: SentCall[] } {
  const requested: string[] = [];
  /** The JSON bodies sent (POST and the like), in order. */
  const sent: unknown[] = [];
  /** Every request with its method, so a test can tell a mutation from a refetch. */
  const calls: SentCall[] = [];
  const bodies = new Map(
    answers.map((answer) => [
      `${answer.method ?? '*'} ${answer.path}`,
      { status: answer.status ?? 200, body: answer.schema.parse(answer.body) },
    ]),
  );
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    requested.push(`${url.pathname}${url.search}`);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? parseJson(init.body) : init?.body;
    if (typeof init?.body === 'string') {
      sent.push(body);
    }
    calls.push({ method, url: `${url.pathname}${url.search}`, body });
    const answer = bodies.get(`${method} ${url.pathname}`) ?? bodies.get(`* ${url.pathname}`);
    return answer === undefined
      ? new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'нет заглушки' }), { status: 404 })
      : new Response(answer.status === 204 ? null : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'Content-Type': 'application/json' },
        });
  });
  return { requested, sent, calls };
}

/**
 * The providers `app/provider.tsx` mounts (out of reach of `testing/`, which may not import the app
 * layer): the app's QueryClient, the theme mode and MUI theme, the toast container when asked for
 * (a string render has no use for it), and a router at `url` with the one route.
 */
export function AppTestProviders({
  queryClient,
  path,
  url,
  element,
  toasts = false,
}: {
  queryClient: QueryClient;
  path: string;
  url: string;
  element: ReactNode;
  toasts?: boolean;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        {(mode) => (
          <ThemeProvider theme={createAppTheme(mode)}>
            <MemoryRouter initialEntries={[url]}>
              <Routes>
                <Route path={path} element={element} />
              </Routes>
            </MemoryRouter>
            {toasts && <ToastContainer {...TOAST_OPTIONS} theme={mode} />}
          </ThemeProvider>
        )}
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}

/**
 * Renders a screen as the app mounts it: the app's QueryClient settings, the theme-mode provider and
 * MUI theme, and a router
 * at `url`. `prefetch` fills the cache through the screen's own query-options factories (and so the
 * stubbed fetch) first, since a server render does not run effects. Without a DOM environment in
 * this repo (no jsdom/happy-dom), the HTML is what the tests read.
 */
export async function renderRoute({
  path,
  url,
  element,
  prefetch,
}: {
  path: string;
  url: string;
  element: ReactNode;
  prefetch?: (queryClient: QueryClient) => Promise<unknown>;
}): Promise<string> {
  const queryClient = createQueryClient();
  await prefetch?.(queryClient);
  // What the theme-mode provider reads on its first render (the cookie, the system preference).
  if (typeof document === 'undefined') {
    vi.stubGlobal('document', { cookie: '', documentElement: { dataset: {} } });
    vi.stubGlobal('window', { matchMedia: undefined, location: { protocol: 'http:' } });
  }
  return renderToString(
    <AppTestProviders queryClient={queryClient} path={path} url={url} element={element} />,
  );
}

/** The text a reader sees, in order, with the emotion styles and the tags taken out. */
export const visibleText = (html: string): string =>
  html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/<title>[\s\S]*?<\/title>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The text of each element with this tag (`h1`, `th`, `button`…) or ARIA role, in order; for
 * elements that do not nest their own tag (a heading, a cell, a tab), as the match stops at the first close.
 */
export function textsOf(html: string, tagOrRole: string): string[] {
  const bare = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
  const byTag = new RegExp(`<${tagOrRole}(?:\\s[^>]*)?>([\\s\\S]*?)</${tagOrRole}>`, 'g');
  const byRole = new RegExp(`<(\\w+)[^>]*\\srole="${tagOrRole}"[^>]*>([\\s\\S]*?)</\\1>`, 'g');
  return [
    ...[...bare.matchAll(byTag)].map((match) => visibleText(match[1] ?? '')),
    ...[...bare.matchAll(byRole)].map((match) => visibleText(match[2] ?? '')),
  ];
}
