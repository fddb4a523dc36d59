import { defineEndpoint } from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ContractMismatchError, callEndpoint, endpointUrl } from './api-client';

const itemEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/v1/test/items/:id',
  tags: ['test'],
  summary: 'test',
  params: z.object({ id: z.string() }),
  query: z.object({ status: z.array(z.enum(['active', 'paused'])).optional(), page: z.number().optional() }),
  response: z.object({ id: z.string(), total: z.number() }),
});

const answer = (body: unknown) =>
  vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('callEndpoint', () => {
  it('builds the URL from the params and query (lists comma-joined) and returns a matching answer', async () => {
    const fetchMock = answer({ id: 'a/1', total: 3 });
    vi.stubGlobal('fetch', fetchMock);
    const result = await callEndpoint(itemEndpoint, {
      params: { id: 'a/1' },
      query: { status: ['active', 'paused'], page: 2 },
    });
    expect(result).toEqual({ id: 'a/1', total: 3 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/test/items/a%2F1?status=active%2Cpaused&page=2');
  });

  it('in development, rejects an answer that does not match the response schema', async () => {
    expect(import.meta.env.DEV).toBe(true);
    vi.stubGlobal('fetch', answer({ id: 'a1', total: 'three' }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const call = callEndpoint(itemEndpoint, { params: { id: 'a1' } });
    await expect(call).rejects.toBeInstanceOf(ContractMismatchError);
    await expect(callEndpoint(itemEndpoint, { params: { id: 'a1' } })).rejects.toThrow(
      /GET \/api\/v1\/test\/items\/:id does not match the contract: total:/,
    );
  });

  it('gives plain download links the same URL', () => {
    expect(endpointUrl(itemEndpoint, { params: { id: 'x y' }, query: { page: 1 } })).toBe(
      '/api/v1/test/items/x%20y?page=1',
    );
  });
});
