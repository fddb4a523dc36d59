import Stack from '@mui/material/Stack';
import { Page } from '@/components/ui/page';
import { texts } from '@/features/checks/texts';
import { useUser } from '@/lib/auth';
import { CheckRunsPanel } from './check-runs-panel';
import { ScheduleCard } from './schedule-card';
import { SourcesTable } from './sources-table';

/** Regular checks: runs and their progress, the daily schedule, and the data sources. */
export default function ChecksPage() {
  const user = useUser();
  const role = user?.role;
  const staff = user?.isStaff ?? false;
  return (
    <Page title={texts.checks.title}>
      <Stack spacing={3}>
        <CheckRunsPanel canStart={role === 'admin' || role === 'analyst'} />
        <ScheduleCard canEdit={role === 'admin'} />
        <SourcesTable canImport={staff} canResetCache={staff} />
      </Stack>
    </Page>
  );
}
