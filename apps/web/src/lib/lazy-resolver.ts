import type { FieldValues, Resolver } from 'react-hook-form';
import { withChunkReload } from './chunk-reload';

/**
 * A form resolver whose schema is fetched on first use. The sign-in forms validate with the
 * contract's zod schemas; loading zod lazily keeps it off the sign-in page's first load. `preload`
 * starts the fetch early (the first keystroke), so submitting does not wait for it.
 */
export function lazyResolver<TValues extends FieldValues, TContext, TOutput>(
  load: () => Promise<Resolver<TValues, TContext, TOutput>>,
): Resolver<TValues, TContext, TOutput> & { preload: () => void } {
  let loading: Promise<Resolver<TValues, TContext, TOutput>> | null = null;
  const get = () => {
    // A chunk gone after a deployment reloads the page, as for routes.
    loading ??= withChunkReload(load)().catch((error: unknown) => {
      // Otherwise (a network blip) the next validation tries again.
      loading = null;
      throw error;
    });
    return loading;
  };
  const resolver = (async (values, context, options) => (await get())(values, context, options)) as Resolver<
    TValues,
    TContext,
    TOutput
  >;
  return Object.assign(resolver, {
    preload: () => {
      get().catch(() => {});
    },
  });
}
