import { type NotificationRulesResponse, notificationEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getNotificationRules = (): Promise<NotificationRulesResponse> =>
  callEndpoint(notificationEndpoints.rules);

export const notificationRulesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.rules,
    queryFn: getNotificationRules,
  });

export const useNotificationRules = () => useQuery(notificationRulesQueryOptions());
