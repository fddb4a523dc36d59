import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type DashboardResponse, ONE_TIME_CHECK_STATUS_LABELS } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/features/dashboard/texts';
import { formatDateTime } from '@/lib/format';

const t = texts.dashboard;

export function RecentChecks({ checks }: { checks: DashboardResponse['recentOneTimeChecks'] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {t.recentChecks.heading}
        </Typography>
        <Link component={RouterLink} to={paths.oneTimeCheckTable.getHref()} variant="body2">
          {t.recentChecks.all}
        </Link>
      </Stack>
      {checks.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t.recentChecks.none}
        </Typography>
      ) : (
        <Stack spacing={1}>
          {checks.map((check) => (
            <Box
              key={check.id}
              sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'baseline' }}
            >
              <Link
                component={RouterLink}
                to={`${paths.oneTimeCheckResults.getHref()}?${new URLSearchParams({ id: check.id })}`}
                sx={{ fontWeight: 600 }}
              >
                {check.number}
              </Link>
              <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                {check.identifierDisplay}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {formatDateTime(check.createdAt)} · {ONE_TIME_CHECK_STATUS_LABELS[check.status]} ·{' '}
                {t.recentChecks.findings(check.findingsCount)}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
