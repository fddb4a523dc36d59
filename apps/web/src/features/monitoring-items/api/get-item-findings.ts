import { checkEndpoints, type ItemFindingsResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The item's last findings per source. */
export function getItemFindings(id: string): Promise<ItemFindingsResponse> {
  return callEndpoint(checkEndpoints.itemFindings, { params: { id } });
}

export const itemFindingsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.monitoringItems.findings(id),
    queryFn: () => getItemFindings(id),
  });

export const useItemFindings = (id: string | null) =>
  useQuery({ ...itemFindingsQueryOptions(id ?? ''), enabled: Boolean(id) });
