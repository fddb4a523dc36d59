import { QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { isApiError } from './api-client';

export const queryConfig = {
  queries: {
    staleTime: 30_000,
    refetchOnWindowFocus: false,
    // Client errors will not change on retry; only network and server failures are retried.
    retry: (failureCount: number, error: unknown) =>
      failureCount < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
  },
  mutations: { retry: false },
};

export const createQueryClient = () => new QueryClient({ defaultOptions: queryConfig });

export type ApiFnReturnType<FnType extends (...args: never[]) => Promise<unknown>> = Awaited<
  ReturnType<FnType>
>;

export type MutationConfig<MutationFnType extends (...args: never[]) => Promise<unknown>> = Omit<
  UseMutationOptions<ApiFnReturnType<MutationFnType>, Error, Parameters<MutationFnType>[0]>,
  'mutationFn'
>;
