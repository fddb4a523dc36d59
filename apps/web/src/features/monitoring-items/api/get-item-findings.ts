import { API, type ItemFindingsResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';

/**
 * The item's last findings per source. `null` when the checks engine is not deployed (404/501):
 * the screen then says the item has not been checked yet instead of showing an error.
 */
export async function getItemFindings(id: string): Promise<ItemFindingsResponse | null> {
  try {
    return await api.get<ItemFindingsResponse>(API.itemFindings(id));
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 501)) {
      return null;
    }
    throw error;
  }
}

export const itemFindingsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['monitoring-items', 'findings', id],
    queryFn: () => getItemFindings(id),
  });

export const useItemFindings = (id: string | null) =>
  useQuery({ ...itemFindingsQueryOptions(id ?? ''), enabled: Boolean(id) });
