import { API, type MonitoringItem } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getItem = (id: string): Promise<MonitoringItem> =>
  api.get<MonitoringItem>(API.monitoringItem(id));

export const itemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['monitoring-items', 'detail', id],
    queryFn: () => getItem(id),
  });

export const useItem = (id: string | null) =>
  useQuery({ ...itemQueryOptions(id ?? ''), enabled: Boolean(id) });
