import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { CHECK_RUN_TRIGGER_LABELS, type CheckRun } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import { FailedSourcesAlert } from '@/components/ui/failed-sources-alert';
import type { ResponsiveColumn } from '@/components/ui/responsive-table';
import { paths } from '@/config/paths';
import { texts } from '@/features/checks/texts';
import { formatDateTime, formatNumber } from '@/lib/format';
import { isRunActive } from '../api/get-check-runs';
import { CheckRunSources } from './check-run-sources';
import { CheckRunStatusChip } from './check-run-status-chip';
import { ProgressBar } from './progress-bar';

const t = texts.checks.runs;

type CheckRunColumnsOptions = { isOpen: (run: CheckRun) => boolean; onToggle: (run: CheckRun) => void };

/** The runs' columns; a card keeps the status, progress and events, with the times in its caption. */
export function checkRunColumns({ isOpen, onToggle }: CheckRunColumnsOptions): ResponsiveColumn<CheckRun>[] {
  return [
    {
      id: 'toggle',
      header: '',
      padding: 'checkbox',
      card: 'actions',
      cell: (run) => (
        <IconButton
          size="small"
          aria-label={isOpen(run) ? texts.common.collapse : texts.common.expand}
          onClick={() => onToggle(run)}
        >
          {isOpen(run) ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
        </IconButton>
      ),
    },
    {
      id: 'createdAt',
      header: t.createdAt,
      card: 'title',
      // Only the time keeps to one line: who started the run wraps under it, so the table fits.
      cell: (run) => (
        <>
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(run.createdAt)}
          </Box>
          <Typography variant="caption" color="text.secondary" component="p">
            {CHECK_RUN_TRIGGER_LABELS[run.trigger]}
            {run.createdBy ? ` · ${run.createdBy}` : ''}
          </Typography>
        </>
      ),
    },
    {
      id: 'status',
      header: t.status,
      cell: (run) => (
        <>
          <CheckRunStatusChip status={run.status} />
          {run.error && (
            <Typography variant="caption" color="error" component="p">
              {run.error}
            </Typography>
          )}
          {run.failedSources.length > 0 && (
            <Typography variant="caption" color="warning.main" component="p" data-testid="run-failed-sources">
              {run.failedSources.map((source) => source.name).join(', ')}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'progress',
      header: t.progress,
      cellSx: { minWidth: 170 },
      cell: (run) => (
        <ProgressBar
          done={run.itemsDone}
          total={run.itemsTotal}
          indeterminate={isRunActive(run) && run.itemsTotal === 0}
          color={run.status === 'completed_with_errors' || run.status === 'failed' ? 'warning' : 'primary'}
          label={t.ofTotal(formatNumber(run.itemsDone), formatNumber(run.itemsTotal))}
        />
      ),
    },
    {
      id: 'eventsCreated',
      header: t.eventsCreated,
      align: 'right',
      cell: (run) =>
        run.eventsCreated > 0 ? (
          <Link
            component={RouterLink}
            to={`${paths.monitoringEvents.getHref()}?${new URLSearchParams({ runId: run.id })}`}
          >
            {formatNumber(run.eventsCreated)}
          </Link>
        ) : (
          formatNumber(run.eventsCreated)
        ),
    },
    {
      id: 'startedAt',
      header: t.startedAt,
      card: 'secondary',
      // Next to «Запуск» on a desktop narrower than 1536 px this column would push «Завершена» out.
      sx: { display: { md: 'none', xl: 'table-cell' } },
      cellSx: { whiteSpace: 'nowrap' },
      cell: (run) => formatDateTime(run.startedAt),
      cardCell: (run) => `${t.startedAt}: ${formatDateTime(run.startedAt)}`,
    },
    {
      id: 'finishedAt',
      header: t.finishedAt,
      card: 'secondary',
      cellSx: { whiteSpace: 'nowrap' },
      cell: (run) => formatDateTime(run.finishedAt),
      cardCell: (run) => `${t.finishedAt}: ${formatDateTime(run.finishedAt)}`,
    },
  ];
}

/** What an open run shows under it: the sources that failed it, then its progress by source. */
export function CheckRunDetail({ run }: { run: CheckRun }) {
  return (
    <Box sx={{ py: 2, pl: { md: 6 } }}>
      <Box sx={{ mb: run.failedSources.length > 0 ? 2 : 0 }}>
        <FailedSourcesAlert
          sources={run.failedSources}
          title={t.failedSources}
          line={(source) => t.failedSource(source.name, source.reason, formatNumber(source.itemsNotChecked))}
        />
      </Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t.bySource}
      </Typography>
      <CheckRunSources runId={run.id} />
    </Box>
  );
}
