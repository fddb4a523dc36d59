import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointPath, pathParamNames } from './endpoint.ts';
import { allEndpoints } from './endpoints/index.ts';

describe('endpointPath', () => {
  it('fills every parameter, URI-encoded', () => {
    expect(endpointPath('/api/v1/monitoring/items/:id', { id: 'a/b?c#d' })).toBe(
      '/api/v1/monitoring/items/a%2Fb%3Fc%23d',
    );
    expect(endpointPath('/api/v1/monitoring/sources/:type/imports', { type: 'fssp' })).toBe(
      '/api/v1/monitoring/sources/fssp/imports',
    );
    expect(endpointPath('/api/v1/news/:id', { id: 'новость 1' })).toBe(
      `/api/v1/news/${encodeURIComponent('новость 1')}`,
    );
    expect(endpointPath('/api/v1/monitoring/items')).toBe('/api/v1/monitoring/items');
  });

  it('refuses a missing or empty parameter instead of calling a wrong path', () => {
    expect(() => endpointPath('/api/v1/monitoring/items/:id', {})).toThrow(/id is missing/);
    expect(() => endpointPath('/api/v1/monitoring/items/:id', { id: '' })).toThrow(/id is missing/);
  });
});

describe('the endpoint catalogue', () => {
  const endpoints = allEndpoints();

  it('holds every endpoint once, each under /api/v1', () => {
    expect(endpoints.length).toBeGreaterThan(70);
    const keys = endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(endpoints.filter((endpoint) => !endpoint.path.startsWith('/api/v1/'))).toEqual([]);
  });

  it("names in `params` exactly the path's parameters", () => {
    const mismatched = endpoints.flatMap((endpoint) => {
      const inPath = pathParamNames(endpoint.path).sort();
      const inSchema =
        endpoint.params instanceof z.ZodObject ? Object.keys(endpoint.params.shape).sort() : [];
      return inPath.join() === inSchema.join() ? [] : [`${endpoint.method} ${endpoint.path}`];
    });
    expect(mismatched).toEqual([]);
  });

  it('sends a file only with multipart and a body schema only without it', () => {
    const wrong = endpoints.filter((endpoint) => endpoint.bodyType === 'multipart' && endpoint.body);
    expect(wrong).toEqual([]);
    const getWithBody = endpoints.filter((endpoint) => endpoint.method === 'GET' && endpoint.body);
    expect(getWithBody).toEqual([]);
  });
});
