import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { QueryClient } from '@tanstack/react-query';
import { Page } from '@/components/ui/page';
import { texts } from '@/features/notifications/texts';
import { useUser } from '@/lib/auth';
import { notificationRulesQueryOptions } from '../api/get-notification-rules';
import { DeliveriesTable } from './deliveries-table';
import { RulesTable } from './rules-table';

/** Rules are fetched while the page's code loads; a failure shows in the table, not as a route error. */
export const clientLoader = (queryClient: QueryClient) => async () => {
  await queryClient.prefetchQuery(notificationRulesQueryOptions());
  return null;
};

/** Notification rules (admins manage them) and the log of every delivery. */
export default function NotificationsPage() {
  const user = useUser();
  const canManage = user?.role === 'admin';
  return (
    <Page title={texts.notifications.title}>
      <Stack spacing={3}>
        {user && !canManage && <Alert severity="info">{texts.notifications.readOnly}</Alert>}
        <RulesTable canManage={canManage} />
        <DeliveriesTable />
      </Stack>
    </Page>
  );
}
