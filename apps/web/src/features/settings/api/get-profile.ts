import type { ProfileResponse } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getProfile = (): Promise<ProfileResponse> => callEndpoint(userEndpoints.profile);

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.profile.one,
    queryFn: getProfile,
  });

export const useProfile = () => useQuery(profileQueryOptions());
