import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  CHECK_RUN_STATUS_LABELS,
  DASHBOARD_FAILED_DELIVERY_DAYS,
  type DashboardResponse,
  EVENT_TYPES,
} from '@pledgewatch/contract';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { FailedSourcesAlert } from '@/components/ui/failed-sources-alert';
import { SeverityChip } from '@/components/ui/severity-chip';
import { DELIVERY_LOG_PARAMS, paths } from '@/config/paths';
import { texts } from '@/features/dashboard/texts';
import { formatDateTime, formatNumber } from '@/lib/format';

const t = texts.dashboard;

const eventsHref = (params: Record<string, string>) =>
  `${paths.monitoringEvents.getHref()}?${new URLSearchParams({ ...params, read: 'false' })}`;
const itemsHref = (entity: string, status: string) =>
  `${paths.monitoringItems.getHref()}?${new URLSearchParams({ entity, status })}`;
const failedDeliveriesHref = `${paths.monitoringNotifications.getHref()}?${new URLSearchParams({
  [DELIVERY_LOG_PARAMS.status]: 'failed',
})}`;

export function Tile({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
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

export function ItemsTile({ items }: { items: DashboardResponse['items'] }) {
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

export function UnreadTile({ unread }: { unread: DashboardResponse['unreadEvents'] }) {
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

export function RunTile({
  run,
  lastItemCheckAt,
}: {
  run: DashboardResponse['lastRun'];
  lastItemCheckAt: DashboardResponse['lastItemCheckAt'];
}) {
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
          <FailedSourcesAlert
            sources={run.failedSources}
            title={t.run.failedSources}
            line={(source) =>
              t.run.failedSource(source.name, source.reason, formatNumber(source.itemsNotChecked))
            }
          />
          <Typography variant="caption" color="text.secondary">
            {run.finishedAt
              ? t.run.finished(formatDateTime(run.finishedAt))
              : t.run.started(formatDateTime(run.startedAt ?? run.createdAt))}
          </Typography>
        </Stack>
      ) : lastItemCheckAt ? (
        // No run in the log, yet the items carry a check time (demo data, imported items): say so
        // instead of «no checks yet», which the items list would contradict.
        <Stack spacing={0.5} data-testid="dashboard-run-items-checked">
          <Typography variant="body2">{t.run.itemsChecked(formatDateTime(lastItemCheckAt))}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t.run.noRunsLogged}
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

export function DeliveriesTile({ deliveries }: { deliveries: DashboardResponse['deliveries'] }) {
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

export function UnreadByType({ unread }: { unread: DashboardResponse['unreadEvents'] }) {
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
