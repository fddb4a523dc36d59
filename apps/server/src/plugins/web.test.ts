import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { opaqueBuildId } from '../lib/build-info.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { applyServerTheme } from './web.ts';

const webDist = await mkdtemp(path.join(os.tmpdir(), 'pw-web-'));
await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html lang="ru"><body>shell</body></html>');
await writeFile(path.join(webDist, 'build.json'), JSON.stringify({ build: 'abc123-2026-01-01T00:00:00Z' }));
const script = `export const answer = ${JSON.stringify('x'.repeat(2000))};\n`;
await mkdir(path.join(webDist, 'assets'));
await writeFile(path.join(webDist, 'assets', 'app-abc.js'), script);
await writeFile(path.join(webDist, 'assets', 'app-abc.js.gz'), gzipSync(script));
await writeFile(path.join(webDist, 'assets', 'app-abc.js.br'), brotliCompressSync(script));
await mkdir(path.join(webDist, '.vite'));
await writeFile(
  path.join(webDist, '.vite', 'manifest.json'),
  '{"src/main.tsx":{"file":"assets/app-abc.js"}}',
);
const { app } = await buildTestApp({ config: { webDist } });

describe('web app serving', () => {
  it('serves the shell with 200 for every route of the table, including the document route', async () => {
    for (const url of [
      '/',
      '/auth',
      '/monitoring/upload/table',
      '/monitoring/one-time-check/document/42?x=1',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('shell');
    }
  });

  it('serves the shell with status 404 for an unknown path, so the app can show its not-found page', async () => {
    const response = await app.inject({ method: 'GET', url: '/no/such/page' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('shell');
  });

  it('paints the first frame in the theme from the serverTheme cookie', async () => {
    const dark = await app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'theme=auto; serverTheme=dark' },
    });
    expect(dark.body).toContain('<html lang="ru" data-theme="dark">');
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.body).toContain('data-theme="light"');
  });

  it('reports the build written by the web build', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/build/info' });
    // Opaque: the unauthenticated build check does not reveal the commit (docs/security.md).
    expect(response.json()).toBe(opaqueBuildId('abc123-2026-01-01T00:00:00Z'));
    expect(response.body).not.toContain('abc123');
  });

  it('sends the precompressed copy of an asset the browser can decode, brotli first', async () => {
    const url = '/assets/app-abc.js';
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('does not serve the build manifest', async () => {
    const response = await app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('src/main.tsx');
  });

  it('answers a missing asset with a plain 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(response.statusCode).toBe(404);
  });
});

describe('applyServerTheme', () => {
  it('replaces an existing data-theme and ignores unknown values', () => {
    expect(applyServerTheme('<html lang="ru" data-theme="light">', 'serverTheme=dark')).toBe(
      '<html lang="ru" data-theme="dark">',
    );
    expect(applyServerTheme('<html lang="ru">', 'serverTheme=purple')).toBe(
      '<html lang="ru" data-theme="light">',
    );
  });
});
