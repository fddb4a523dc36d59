import type { Resolver, ResolverOptions, ResolverResult } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Values>;

const valid = (values: Values): ResolverResult<Values> => ({ values, errors: {} });
const invalid: ResolverResult<Values> = {
  values: {},
  errors: { email: { type: 'required', message: 'Обязательное поле' } },
};
const realResolver: Resolver<Values> = async (values) => (values.email ? valid(values) : invalid);

describe('lazyResolver', () => {
  it('loads the schema once, on first use or on preload, and validates with it', async () => {
    let loads = 0;
    const resolver = lazyResolver<Values, unknown, Values>(async () => {
      loads += 1;
      return realResolver;
    });
    expect(loads).toBe(0);
    resolver.preload();
    resolver.preload();
    const rejected = await resolver({ email: '' }, undefined, options);
    expect(rejected.errors).toEqual({ email: { type: 'required', message: 'Обязательное поле' } });
    const accepted = await resolver({ email: 'a@b.ru' }, undefined, options);
    expect(accepted).toEqual({ values: { email: 'a@b.ru' }, errors: {} });
    expect(loads).toBe(1);
  });

  it('tries the load again after a failed fetch', async () => {
    let attempts = 0;
    const resolver = lazyResolver<Values, unknown, Values>(async () => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error('Failed to fetch dynamically imported module');
      }
      return realResolver;
    });
    resolver.preload();
    await expect(resolver({ email: '' }, undefined, options)).rejects.toThrow('Failed to fetch');
    const result = await resolver({ email: 'a@b.ru' }, undefined, options);
    expect(result.errors).toEqual({});
    expect(attempts).toBe(2);
  });

  describe('after a deployment removed the schema chunk', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('reloads the page, as a missing route chunk does', async () => {
      const storage = new Map<string, string>();
      const reload = vi.fn();
      vi.stubGlobal('window', {
        sessionStorage: {
          getItem: (key: string) => storage.get(key) ?? null,
          setItem: (key: string, value: string) => storage.set(key, value),
        },
        location: { reload },
      });
      const resolver = lazyResolver<Values, unknown, Values>(async () => {
        throw new TypeError('Failed to fetch dynamically imported module: /assets/form-schemas-old.js');
      });
      void resolver({ email: '' }, undefined, options);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(reload).toHaveBeenCalledTimes(1);
    });
  });
});
