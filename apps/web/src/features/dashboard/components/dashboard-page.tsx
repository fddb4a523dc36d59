import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Page } from '@/components/ui/page';
import { texts } from '@/features/dashboard/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDashboard } from '../api/get-dashboard';

import { DeliveriesTile, ItemsTile, RunTile, UnreadByType, UnreadTile } from './dashboard-tiles';
import { QuickCheck } from './quick-check';
import { RecentChecks } from './recent-checks';

const t = texts.dashboard;

export default function DashboardPage() {
  const dashboard = useDashboard();
  const data = dashboard.data;
  return (
    <Page title={t.title}>
      {dashboard.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {getErrorMessage(dashboard.error)}
        </Alert>
      ) : null}
      {!data ? (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(4, 1fr)' },
          }}
        >
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} variant="rounded" height={160} />
          ))}
        </Box>
      ) : (
        <Stack spacing={2}>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
            }}
          >
            <ItemsTile items={data.items} />
            <UnreadTile unread={data.unreadEvents} />
            <RunTile run={data.lastRun} lastItemCheckAt={data.lastItemCheckAt} />
            <DeliveriesTile deliveries={data.deliveries} />
          </Box>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
              alignItems: 'start',
            }}
          >
            <UnreadByType unread={data.unreadEvents} />
            <Stack spacing={2}>
              <QuickCheck />
              <RecentChecks checks={data.recentOneTimeChecks} />
            </Stack>
          </Box>
        </Stack>
      )}
    </Page>
  );
}
