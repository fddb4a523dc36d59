import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/test-app.ts';

const webDist = await mkdtemp(path.join(os.tmpdir(), 'pw-web-headers-'));
await mkdir(path.join(webDist, 'assets'));
await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html lang="ru"><body>shell</body></html>');
await writeFile(path.join(webDist, 'assets', 'index-abc.js'), 'console.log(1);\n');
// app.inject comes from 127.0.0.1: trust it as the proxy that terminates TLS.
const { app } = await buildTestApp({ config: { webDist, trustProxy: { addresses: ['127.0.0.1'] } } });

/** The CSP as a map of directive → sources. */
function policyOf(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const RESPONSES = [
  { what: 'the app shell', url: '/', status: 200 },
  { what: 'an app route', url: '/monitoring/items', status: 200 },
  { what: 'the 404 page', url: '/no/such/page', status: 404 },
  { what: 'a static asset', url: '/assets/index-abc.js', status: 200 },
  { what: 'a missing asset', url: '/assets/missing.js', status: 404 },
  { what: 'an API route (401)', url: '/api/v1/auth/me', status: 401 },
  { what: 'an unknown API route', url: '/api/v1/nothing', status: 404 },
  { what: 'the build id', url: '/api/v1/build/info', status: 200 },
  { what: 'the API docs', url: '/api/docs/', status: 200 },
];

describe('security headers on every response', () => {
  for (const { what, url, status } of RESPONSES) {
    it(`${what}: strict CSP, no framing, nosniff, referrer policy`, async () => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(status);
      const policy = policyOf(response.headers['content-security-policy']);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('script-src-attr')).toEqual(["'none'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      // Plain HTTP: no HSTS (it would be ignored, and a local run must keep working).
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });
  }

  it('sends HSTS when the request came over HTTPS', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
  });
});

describe('public endpoints', () => {
  it('the build id is opaque: it changes with the build but does not show the commit', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/build/info' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('the API docs render without a session', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const spec = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.json()).toMatchObject({ info: { title: 'Pledgewatch API' } });
  });
});
