import {
  type EndpointQuery,
  type EndpointResponse,
  memberEndpoints,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type UsersQuery = WithRequired<EndpointQuery<typeof memberEndpoints.list>, 'page' | 'pageSize'>;

export type UsersPage = EndpointResponse<typeof memberEndpoints.list>;

export const getUsers = (query: UsersQuery): Promise<UsersPage> =>
  callEndpoint(memberEndpoints.list, { query });

export const usersQueryOptions = (query: UsersQuery) =>
  queryOptions({
    queryKey: queryKeys.users.list(query),
    queryFn: () => getUsers(query),
  });

export const useUsers = (query: UsersQuery) =>
  // The previous page stays on screen while the next one loads, so the table does not jump.
  useQuery({ ...usersQueryOptions(query), placeholderData: keepPreviousData });
