import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CHECK_RUN_STATUS_LABELS,
  DASHBOARD_FAILED_DELIVERY_DAYS,
  type DashboardResponse,
  EVENT_TYPES,
  ONE_TIME_CHECK_STATUS_LABELS,
} from '@pledgewatch/contract';
import { DOCUMENT_TYPE_CODES, DOCUMENT_TYPES, type DocumentType } from '@pledgewatch/identifiers';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Page } from '@/components/ui/page';
import { SeverityChip } from '@/components/ui/severity-chip';
import { DELIVERY_LOG_PARAMS, paths } from '@/config/paths';
import { texts } from '@/features/dashboard/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatMoscowDateTime, formatNumber } from '@/lib/format';
import { useDashboard } from '../api/get-dashboard';

const t = texts.dashboard;

const eventsHref = (params: Record<string, string>) =>
  `${paths.monitoringEvents.getHref()}?${new URLSearchParams({ ...params, read: 'false' })}`;
const itemsHref = (entity: string, status: string) =>
  `${paths.monitoringItems.getHref()}?${new URLSearchParams({ entity, status })}`;
const failedDeliveriesHref = `${paths.monitoringNotifications.getHref()}?${new URLSearchParams({
  [DELIVERY_LOG_PARAMS.status]: 'failed',
})}`;

function Tile({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={testId}>
      <Typography variant="subtitle2" color="text.secondary" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function BigNumber({ value, href, testId }: { value: number; href: string; testId: string }) {
  return (
    <Link
      component={RouterLink}
      to={href}
      underline="hover"
      variant="h3"
      sx={{ fontWeight: 600, display: 'inline-block' }}
      data-testid={testId}
      data-value={value}
    >
      {formatNumber(value)}
    </Link>
  );
}

function ItemsTile({ items }: { items: DashboardResponse['items'] }) {
  return (
    <Tile title={t.items.heading} testId="dashboard-items">
      <BigNumber
        value={items.monitored}
        href={paths.monitoringItems.getHref()}
        testId="dashboard-items-total"
      />
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {t.items.hint}
      </Typography>
      {items.byKind.map((kind) => (
        <Box key={kind.kind} sx={{ mt: 0.5 }}>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600, mr: 1 }}>
            {kind.kind === 'vin' ? t.items.vin : t.items.document}
          </Typography>
          {(['active', 'paused', 'archived'] as const).map((status, index) => (
            <Typography variant="body2" component="span" key={status}>
              {index > 0 ? ' · ' : ''}
              <Link
                component={RouterLink}
                to={itemsHref(kind.kind, status)}
                data-testid={`dashboard-items-${kind.kind}-${status}`}
              >
                {formatNumber(kind[status])}
              </Link>{' '}
              {t.items[status]}
            </Typography>
          ))}
        </Box>
      ))}
    </Tile>
  );
}

function UnreadTile({ unread }: { unread: DashboardResponse['unreadEvents'] }) {
  return (
    <Tile title={t.unread.heading} testId="dashboard-unread">
      <BigNumber value={unread.total} href={eventsHref({})} testId="dashboard-unread-total" />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }} aria-label={t.unread.bySeverity}>
        {unread.bySeverity
          .filter((cell) => cell.count > 0)
          .map((cell) => (
            <Link
              key={cell.severity}
              component={RouterLink}
              to={eventsHref({ severity: cell.severity })}
              underline="none"
              data-testid={`dashboard-unread-${cell.severity}`}
            >
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <SeverityChip severity={cell.severity} />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {formatNumber(cell.count)}
                </Typography>
              </Stack>
            </Link>
          ))}
      </Stack>
    </Tile>
  );
}

function RunTile({ run }: { run: DashboardResponse['lastRun'] }) {
  return (
    <Tile title={t.run.heading} testId="dashboard-run">
      {run ? (
        <Stack spacing={1}>
          <Chip
            size="small"
            sx={{ alignSelf: 'flex-start' }}
            label={CHECK_RUN_STATUS_LABELS[run.status]}
            color={
              run.status === 'completed'
                ? 'success'
                : run.status === 'failed'
                  ? 'error'
                  : run.status === 'completed_with_errors'
                    ? 'warning'
                    : 'info'
            }
            data-status={run.status}
          />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <LinearProgress
              variant={run.status === 'queued' && run.itemsTotal === 0 ? 'indeterminate' : 'determinate'}
              value={run.itemsTotal > 0 ? Math.min(100, (run.itemsDone / run.itemsTotal) * 100) : 100}
              sx={{ flexGrow: 1, height: 8, borderRadius: 4 }}
              aria-label={t.run.heading}
            />
            <Typography variant="caption" sx={{ whiteSpace: 'nowrap' }}>
              {t.run.items(formatNumber(run.itemsDone), formatNumber(run.itemsTotal))}
            </Typography>
          </Box>
          <Typography variant="body2">{t.run.events(formatNumber(run.eventsCreated))}</Typography>
          <Typography variant="caption" color="text.secondary">
            {run.finishedAt
              ? t.run.finished(formatMoscowDateTime(run.finishedAt))
              : t.run.started(formatMoscowDateTime(run.startedAt ?? run.createdAt))}
          </Typography>
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t.run.none}
        </Typography>
      )}
      <Link
        component={RouterLink}
        to={paths.monitoringChecks.getHref()}
        variant="body2"
        sx={{ mt: 1, display: 'block' }}
      >
        {t.run.open}
      </Link>
    </Tile>
  );
}

function DeliveriesTile({ deliveries }: { deliveries: DashboardResponse['deliveries'] }) {
  return (
    <Tile title={t.deliveries.heading} testId="dashboard-deliveries">
      <BigNumber
        value={deliveries.failedRecent}
        href={failedDeliveriesHref}
        testId="dashboard-deliveries-failed"
      />
      <Typography variant="caption" color="text.secondary" component="p">
        {t.deliveries.recent(DASHBOARD_FAILED_DELIVERY_DAYS)}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {t.deliveries.total(formatNumber(deliveries.failedTotal))}
      </Typography>
      <Link
        component={RouterLink}
        to={paths.monitoringNotifications.getHref()}
        variant="body2"
        sx={{ mt: 1, display: 'block' }}
      >
        {t.deliveries.open}
      </Link>
    </Tile>
  );
}

function UnreadByType({ unread }: { unread: DashboardResponse['unreadEvents'] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto', minWidth: 0 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {t.unread.byType}
        </Typography>
        <Link component={RouterLink} to={eventsHref({})} variant="body2">
          {t.unread.openList}
        </Link>
      </Stack>
      {unread.byType.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t.unread.none}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t.unread.type}</TableCell>
              <TableCell>{t.unread.severity}</TableCell>
              <TableCell align="right">{t.unread.count}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {unread.byType.map((cell) => (
              <TableRow key={`${cell.type}-${cell.severity}`} hover>
                <TableCell>
                  <Link component={RouterLink} to={eventsHref({ type: cell.type, severity: cell.severity })}>
                    {EVENT_TYPES[cell.type].label}
                  </Link>
                </TableCell>
                <TableCell>
                  <SeverityChip severity={cell.severity} />
                </TableCell>
                <TableCell align="right">
                  <Link
                    component={RouterLink}
                    to={eventsHref({ type: cell.type, severity: cell.severity })}
                    data-testid={`dashboard-unread-${cell.type}-${cell.severity}`}
                    sx={{ fontWeight: 600 }}
                  >
                    {formatNumber(cell.count)}
                  </Link>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}

const VIN_KIND = 'vin';
type QuickKind = typeof VIN_KIND | DocumentType;

function QuickCheck() {
  const navigate = useNavigate();
  const [kind, setKind] = useState<QuickKind>(VIN_KIND);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (!text) {
      setError(t.quickCheck.required);
      return;
    }
    const params: Record<string, string> =
      kind === VIN_KIND ? { vin: text } : { documentType: kind, documentNumber: text };
    void navigate(`${paths.oneTimeCheck.getHref()}?${new URLSearchParams(params)}`);
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={onSubmit} noValidate>
      <Typography variant="h6" component="h2">
        {t.quickCheck.heading}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t.quickCheck.hint}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          select
          size="small"
          label={t.quickCheck.kind}
          value={kind}
          onChange={(event) => setKind(event.target.value as QuickKind)}
          sx={{ flex: '1 1 170px' }}
        >
          <MenuItem value={VIN_KIND}>{t.quickCheck.vin}</MenuItem>
          {DOCUMENT_TYPE_CODES.map((code) => (
            <MenuItem key={code} value={code}>
              {DOCUMENT_TYPES[code]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t.quickCheck.number}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          sx={{ flex: '2 1 220px' }}
          slotProps={{ htmlInput: { 'data-testid': 'dashboard-quick-check' } }}
        />
        <Button type="submit" variant="contained" sx={{ height: 40, flex: '0 0 auto' }}>
          {t.quickCheck.submit}
        </Button>
      </Box>
    </Paper>
  );
}

function RecentChecks({ checks }: { checks: DashboardResponse['recentOneTimeChecks'] }) {
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
                {formatMoscowDateTime(check.createdAt)} · {ONE_TIME_CHECK_STATUS_LABELS[check.status]} ·{' '}
                {t.recentChecks.findings(check.findingsCount)}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

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
            <RunTile run={data.lastRun} />
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
