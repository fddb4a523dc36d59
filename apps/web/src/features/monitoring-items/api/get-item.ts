import { API, type MonitoringItem } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getItem = (id: string): Promise<MonitoringItem> =>
  api.get<MonitoringItem>(API.monitoringItem(id));

export const itemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.monitoringItems.detail(id),
    queryFn: () => getItem(id),
  });

export const useItem = (id: string | null) =>
  useQuery({ ...itemQueryOptions(id ?? ''), enabled: Boolean(id) });
