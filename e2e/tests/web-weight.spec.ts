import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { DEMO_ANALYST } from '../support/session.ts';

/**
 * What the browser downloads before and after sign-in (issue #15): the sign-in page stays under a
 * byte budget, nothing of the signed-in app is fetched before sign-in, and after sign-in the
 * sections are preloaded at most four at a time (seed: "Up to 4 routes are preloaded in parallel").
 */

/** JavaScript and CSS the sign-in page may load, gzip (the target). */
const AUTH_BUDGET_GZIP_BYTES = 200_000;
const PRELOAD_CONCURRENCY = 4;

type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
};

const distDir = path.resolve(import.meta.dirname, '../../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** The files a chunk needs before it runs: itself and its static imports, transitively. */
function staticFiles(key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) {
    return files;
  }
  files.add(chunk.file);
  for (const next of chunk.imports ?? []) {
    staticFiles(next, files);
  }
  return files;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? '';
const lazyKeys = manifest[entryKey]?.dynamicImports ?? [];
/** The router's lazy routes by source file; the sign-in screens share one chunk (`_sign-in-…`). */
const routeKeys = lazyKeys.filter((key) => key.startsWith('src/'));
const isSignedOutRoute = (key: string) =>
  key.startsWith('src/app/routes/auth/') || key.endsWith('not-found.tsx');
const signInKeys = lazyKeys.filter((key) => manifest[key]?.name === 'sign-in' || isSignedOutRoute(key));
const signedInRouteFiles = new Set(
  routeKeys.filter((key) => !isSignedOutRoute(key)).map((key) => manifest[key]?.file ?? ''),
);
const signedInFiles = new Set([
  ...signedInRouteFiles,
  ...Object.values(manifest)
    .filter((chunk) => chunk.name === 'app-shared')
    .map((chunk) => chunk.file),
]);
/** Libraries the entry loads lazily (the toast container, when the signed-in layout mounts): not sections. */
const lazyLibraryFiles = new Set(
  lazyKeys
    .filter((key) => !key.startsWith('src/') && !signInKeys.includes(key))
    .map((key) => manifest[key]?.file),
);

const assetFile = (url: string) => new URL(url).pathname.replace(/^\//, '');
const isCode = (url: string) => /\.(js|css)$/.test(new URL(url).pathname);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

type Download = { file: string; gzipBytes: number; transferredBytes: number; encoding: string };

/** Every script and style the page downloads, with its gzip size and the bytes actually sent. */
function recordDownloads(page: Page): Download[] {
  const downloads: Download[] = [];
  page.on('response', async (response) => {
    if (!isCode(response.url()) || response.status() !== 200) {
      return;
    }
    const body = await response.body();
    const sizes = await response.request().sizes();
    downloads.push({
      file: assetFile(response.url()),
      gzipBytes: gzipSync(body, { level: 9 }).length,
      transferredBytes: sizes.responseBodySize,
      encoding: (await response.headerValue('content-encoding')) ?? 'none',
    });
  });
  return downloads;
}

/** Script fetches as the page timed them (start to end), from the Resource Timing entries. */
async function scriptTimings(page: Page): Promise<{ file: string; start: number; end: number }[]> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => ({
      url: entry.name,
      start: entry.startTime,
      end: (entry as PerformanceResourceTiming).responseEnd,
    })),
  );
  return entries
    .filter((entry) => /\/assets\/.*\.js$/.test(new URL(entry.url).pathname))
    .map((entry) => ({ file: assetFile(entry.url), start: entry.start, end: entry.end }));
}

function maxInFlight(spans: { start: number; end: number }[]): number {
  const events = spans.flatMap((span) => [
    { at: span.start, delta: 1 },
    { at: span.end, delta: -1 },
  ]);
  // At equal times, finishes count before starts: back-to-back fetches do not overlap.
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let peak = 0;
  for (const event of events) {
    current += event.delta;
    peak = Math.max(peak, current);
  }
  return peak;
}

test('the sign-in page stays light and sections are preloaded only after sign-in, four at a time', async ({
  browser,
}) => {
  expect(routeKeys.length).toBeGreaterThan(10);
  expect(signInKeys.length).toBeGreaterThan(0);
  const context = await browser.newContext();
  const page = await context.newPage();
  const downloads = recordDownloads(page);

  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Idle-time work (the old preloading started here) gets its chance too.
  await page.waitForTimeout(3000);

  const signedOut = [...downloads];
  const gzipTotal = signedOut.reduce((sum, item) => sum + item.gzipBytes, 0);
  const transferredTotal = signedOut.reduce((sum, item) => sum + item.transferredBytes, 0);
  console.log(
    `/auth signed out: ${signedOut.length} JS/CSS files, ${kb(gzipTotal)} gzip (budget ${kb(AUTH_BUDGET_GZIP_BYTES)}), ` +
      `${kb(transferredTotal)} transferred (${[...new Set(signedOut.map((item) => item.encoding))].join(', ')})`,
  );
  for (const item of [...signedOut].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(
      `  ${item.file}: ${kb(item.gzipBytes)} gzip, ${kb(item.transferredBytes)} sent as ${item.encoding}`,
    );
  }

  expect(signedOut.length).toBeGreaterThan(0);
  expect(gzipTotal).toBeLessThanOrEqual(AUTH_BUDGET_GZIP_BYTES);
  // The server sends the precompressed copies, so what travels is no bigger than the gzip figure.
  for (const item of signedOut) {
    expect(['br', 'gzip'], item.file).toContain(item.encoding);
  }
  expect(transferredTotal).toBeLessThanOrEqual(gzipTotal);
  // Nothing of the signed-in app before sign-in.
  expect(signedOut.map((item) => item.file).filter((file) => signedInFiles.has(file))).toEqual([]);
  const allowedSignedOut = new Set([
    // index.html loads it before any module (public/, outside the manifest): zod without eval under the CSP.
    'zod-jitless.js',
    ...staticFiles(entryKey),
    ...signInKeys.flatMap((key) => [...staticFiles(key)]),
  ]);
  expect(signedOut.map((item) => item.file).filter((file) => !allowedSignedOut.has(file))).toEqual([]);

  // Sign in through the form; the dashboard opens and the sections' code follows in the background.
  const signedOutFiles = new Set(signedOut.map((item) => item.file));
  await page.getByLabel('E-mail').fill(DEMO_ANALYST.email);
  await page.getByLabel('Пароль', { exact: true }).fill(DEMO_ANALYST.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(page.getByRole('button', { name: 'Выйти' }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(3000);

  const timings = (await scriptTimings(page)).filter((item) => !signedOutFiles.has(item.file));
  const afterSignIn = downloads.slice(signedOut.length);
  // The files the sign-in navigation itself needs (layout, dashboard, the shared chunk) are not preloads.
  const navigationFiles = new Set([
    ...staticFiles('src/app/routes/app/root.tsx'),
    ...staticFiles('src/features/dashboard/components/dashboard-page.tsx'),
  ]);
  const preloads = timings.filter(
    (item) => !navigationFiles.has(item.file) && signedInRouteFiles.has(item.file),
  );
  const routePeak = maxInFlight(preloads);
  const allPeak = maxInFlight(
    timings.filter((item) => !navigationFiles.has(item.file) && !lazyLibraryFiles.has(item.file)),
  );
  console.log(
    `after sign-in: ${afterSignIn.length} JS/CSS files, ${kb(afterSignIn.reduce((sum, item) => sum + item.gzipBytes, 0))} gzip; ` +
      `${preloads.length} route chunks preloaded, at most ${routePeak} route chunks (${allPeak} script files) in flight`,
  );

  expect(preloads.length).toBeGreaterThanOrEqual(10);
  expect(routePeak).toBeLessThanOrEqual(PRELOAD_CONCURRENCY);
  // A route preload is one file: what sections share came with the layout (the app-shared chunk).
  expect(allPeak).toBeLessThanOrEqual(PRELOAD_CONCURRENCY);
  await context.close();
});

test('the sign-in form still validates with the contract, its schemas fetched only on use', async ({
  page,
}) => {
  const schemaRequests: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/(form-schemas|zod)-/.test(request.url())) {
      schemaRequests.push(request.url());
    }
  });
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(schemaRequests).toEqual([]);

  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByText('Обязательное поле')).toHaveCount(2);
  expect(schemaRequests.length).toBeGreaterThan(0);
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/auth/);
});
