import { API, type NotificationRulesResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getNotificationRules = (): Promise<NotificationRulesResponse> =>
  api.get<NotificationRulesResponse>(API.notificationSettings);

export const notificationRulesQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'rules'],
    queryFn: getNotificationRules,
  });

export const useNotificationRules = () => useQuery(notificationRulesQueryOptions());
