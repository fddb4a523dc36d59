import { API, type ProfileResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getProfile = (): Promise<ProfileResponse> => api.get<ProfileResponse>(API.profile);

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.profile.one,
    queryFn: getProfile,
  });

export const useProfile = () => useQuery(profileQueryOptions());
