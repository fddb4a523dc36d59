import { type Member, memberEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The contract's query schema coerces strings, so its input type is too loose for the client. */
export type UsersQuery = { page: number; pageSize: number; search?: string };

export type UsersPage = { items: Member[]; total: number };

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
