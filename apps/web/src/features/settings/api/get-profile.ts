import { API, type ProfileResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getProfile = (): Promise<ProfileResponse> => api.get<ProfileResponse>(API.profile);

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: ['user', 'profile'],
    queryFn: getProfile,
  });

export const useProfile = () => useQuery(profileQueryOptions());
