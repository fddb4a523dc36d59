import { type PledgePackageDetail, pledgeEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { SHARED_WORK_STALE_MS } from './shared-work';

export const getPledgePackage = (id: string): Promise<PledgePackageDetail> =>
  callEndpoint(pledgeEndpoints.package, { params: { id } });

export const pledgePackageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.pledges.package(id),
    staleTime: SHARED_WORK_STALE_MS,
    queryFn: () => getPledgePackage(id),
  });

/** One package (a link to it, e.g. from the header search); off without an id. */
export const usePledgePackage = (id: string | null) =>
  useQuery({ ...pledgePackageQueryOptions(id ?? ''), enabled: id !== null });
