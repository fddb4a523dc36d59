import { type MonitoringItem, monitoringEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getItem = (id: string): Promise<MonitoringItem> =>
  callEndpoint(monitoringEndpoints.item, { params: { id } });

export const itemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.monitoringItems.detail(id),
    queryFn: () => getItem(id),
  });

export const useItem = (id: string | null) =>
  useQuery({ ...itemQueryOptions(id ?? ''), enabled: Boolean(id) });
