import { API, type NotificationRulesResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getNotificationRules = (): Promise<NotificationRulesResponse> =>
  api.get<NotificationRulesResponse>(API.notificationSettings);

export const notificationRulesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.rules,
    queryFn: getNotificationRules,
  });

export const useNotificationRules = () => useQuery(notificationRulesQueryOptions());
