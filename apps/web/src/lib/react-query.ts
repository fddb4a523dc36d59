import { QueryClient, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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

/**
 * A mutation that refreshes the queries under `queryKey` when it succeeds, before the caller's own
 * `onSuccess` runs (so a toast or a closed dialog sees fresh data).
 */
export function useInvalidatingMutation<Input, Output>(
  mutationFn: (input: Input) => Promise<Output>,
  queryKey: readonly unknown[],
  config?: Omit<UseMutationOptions<Output, Error, Input>, 'mutationFn'>,
) {
  const queryClient = useQueryClient();
  return useMutation<Output, Error, Input>({
    ...config,
    mutationFn,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey });
      await config?.onSuccess?.(...args);
    },
  });
}
