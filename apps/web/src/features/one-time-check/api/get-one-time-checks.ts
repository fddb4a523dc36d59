import { checkEndpoints, type ItemKind, type OneTimeCheckSummary } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The contract's query schema coerces strings, so its input type is too loose for the client. */
export type OneTimeChecksQuery = { page: number; pageSize: number; search?: string; kind?: ItemKind };

export type OneTimeChecksPage = { items: OneTimeCheckSummary[]; total: number };

export const getOneTimeChecks = (query: OneTimeChecksQuery): Promise<OneTimeChecksPage> =>
  callEndpoint(checkEndpoints.oneTimeChecks, { query });

export const oneTimeChecksQueryOptions = (query: OneTimeChecksQuery) =>
  queryOptions({
    queryKey: queryKeys.oneTimeChecks.list(query),
    queryFn: () => getOneTimeChecks(query),
  });

export const useOneTimeChecks = (query: OneTimeChecksQuery) =>
  useQuery({ ...oneTimeChecksQueryOptions(query), placeholderData: keepPreviousData });
