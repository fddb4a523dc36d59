import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allEndpoints } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './testing/test-app.ts';

/**
 * The seed spec's table of calls is the contract we were given: every method + path in it must
 * be in the served OpenAPI document (docs/seed-spec.md, the spec as given).
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const specPath = path.join(repoRoot, 'docs/seed-spec.md');

function seedCalls(markdown: string): { method: string; path: string }[] {
  const section = markdown.split('## 7. The calls it makes')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/api\/[^\s|]+)\s*\|/gm)].map(
    (match) => ({
      method: match[1]!.toLowerCase(),
      path: match[2]!,
    }),
  );
}

const { app } = await buildTestApp();

describe('OpenAPI contract', () => {
  it('contains every call of the seed spec', async () => {
    expect(specPath, 'seed-spec.md not found').toBeDefined();
    const calls = seedCalls(readFileSync(specPath!, 'utf8'));
    expect(calls.length).toBeGreaterThanOrEqual(25);
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { paths: Record<string, Record<string, unknown>> };
    const missing = calls.filter((call) => !document.paths[call.path]?.[call.method]);
    expect(missing).toEqual([]);
  });

  it('serves every endpoint of the contract catalogue, and nothing else under /api/v1', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json() as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(document.paths).flatMap(([routePath, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'head')
        .map(
          // A module's root route is listed with a trailing slash (`/api/v1/users/`), served without one too.
          (method) =>
            `${method.toUpperCase()} ${routePath.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`,
        ),
    );
    const catalogue = allEndpoints().map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(catalogue).size).toBe(catalogue.length);
    expect(served.filter((call) => call.includes(' /api/v1/')).sort()).toEqual([...catalogue].sort());
    // The OpenAPI document lists only the API; these are the routes outside the catalogue.
    expect(served.filter((call) => !call.includes(' /api/v1/'))).toEqual([]);
    for (const endpoint of allEndpoints()) {
      expect(app.hasRoute({ method: endpoint.method, url: endpoint.path }), endpoint.path).toBe(true);
    }
  });

  it('serves Swagger UI at /api/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('seed calls refuse anonymous callers with 401', async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/statistics/data',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('returns the build identifier as a JSON string', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/build/info' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(typeof response.json()).toBe('string');
    expect(response.json().length).toBeGreaterThan(3);
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/no/such/thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      code: 'ROUTE_NOT_FOUND',
      message: 'Такого адреса API нет: GET /api/v1/no/such/thing',
    });
  });
});
