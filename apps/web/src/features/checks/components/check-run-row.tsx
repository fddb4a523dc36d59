import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CHECK_RUN_TRIGGER_LABELS, type CheckRun } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import { FailedSourcesAlert } from '@/components/ui/failed-sources-alert';
import { paths } from '@/config/paths';
import { texts } from '@/features/checks/texts';
import { formatMoscowDateTime, formatNumber } from '@/lib/format';
import { isRunActive } from '../api/get-check-runs';
import { CheckRunSources } from './check-run-sources';
import { CheckRunStatusChip } from './check-run-status-chip';
import { ProgressBar } from './progress-bar';

const t = texts.checks.runs;

const COLUMNS = 7;

type CheckRunRowProps = { run: CheckRun; open: boolean; onToggle: () => void };

export function CheckRunRow({ run, open, onToggle }: CheckRunRowProps) {
  return (
    <>
      <TableRow
        hover
        data-testid="run-row"
        data-status={run.status}
        sx={{ '& > td': { borderBottom: open ? 0 : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={open ? texts.common.collapse : texts.common.expand}
            onClick={onToggle}
          >
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          {formatMoscowDateTime(run.createdAt)}
          <Typography variant="caption" color="text.secondary" component="p">
            {CHECK_RUN_TRIGGER_LABELS[run.trigger]}
            {run.createdBy ? ` · ${run.createdBy}` : ''}
          </Typography>
        </TableCell>
        <TableCell>
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
        </TableCell>
        <TableCell sx={{ minWidth: 220 }}>
          <ProgressBar
            done={run.itemsDone}
            total={run.itemsTotal}
            indeterminate={isRunActive(run) && run.itemsTotal === 0}
            color={run.status === 'completed_with_errors' || run.status === 'failed' ? 'warning' : 'primary'}
            label={t.ofTotal(formatNumber(run.itemsDone), formatNumber(run.itemsTotal))}
          />
        </TableCell>
        <TableCell align="right">
          {run.eventsCreated > 0 ? (
            <Link
              component={RouterLink}
              to={`${paths.monitoringEvents.getHref()}?${new URLSearchParams({ runId: run.id })}`}
            >
              {formatNumber(run.eventsCreated)}
            </Link>
          ) : (
            formatNumber(run.eventsCreated)
          )}
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoscowDateTime(run.startedAt)}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoscowDateTime(run.finishedAt)}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={COLUMNS} sx={{ py: 0, ...(open ? {} : { borderBottom: 0 }) }}>
          <Collapse in={open} unmountOnExit>
            <Box sx={{ py: 2, pl: { md: 6 } }}>
              <Box sx={{ mb: run.failedSources.length > 0 ? 2 : 0 }}>
                <FailedSourcesAlert
                  sources={run.failedSources}
                  title={t.failedSources}
                  line={(source) =>
                    t.failedSource(source.name, source.reason, formatNumber(source.itemsNotChecked))
                  }
                />
              </Box>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                {t.bySource}
              </Typography>
              <CheckRunSources runId={run.id} />
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}
