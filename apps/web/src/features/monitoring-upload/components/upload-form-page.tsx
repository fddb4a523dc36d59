import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { texts } from '@/features/monitoring-upload/texts';
import { useUser } from '@/lib/auth';
import { RowsGrid } from './rows-grid';
import { SingleItemForm } from './single-item-form';
import { ViewerNotice } from './viewer-notice';

const t = texts.monitoringUpload;

export default function UploadFormPage() {
  const user = useUser();
  if (user?.role === 'viewer') {
    return <ViewerNotice />;
  }
  return (
    <Stack spacing={3}>
      <Section title={t.single.title} hint={t.single.hint}>
        <SingleItemForm />
      </Section>
      <Section title={t.grid.title} hint={t.grid.hint}>
        <RowsGrid />
      </Section>
    </Stack>
  );
}

function Section({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: { xs: 2, md: 3 } }} aria-label={title}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
        {hint}
      </Typography>
      {children}
    </Paper>
  );
}
