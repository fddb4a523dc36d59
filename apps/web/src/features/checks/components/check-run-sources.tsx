import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { texts } from '@/features/checks/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { useCheckRun } from '../api/get-check-run';
import { isRunActive } from '../api/get-check-runs';
import { ProgressBar } from './progress-bar';

const t = texts.checks.runs;

/** A run's progress per source; a source whose batches failed is flagged, never counted as clean. */
export function CheckRunSources({ runId }: { runId: string }) {
  const run = useCheckRun(runId, true);
  if (run.isPending) {
    return <CircularProgress size={20} aria-label={texts.common.loading} />;
  }
  if (run.isError) {
    return <Alert severity="error">{getErrorMessage(run.error)}</Alert>;
  }
  const sources = run.data.sources;
  const active = isRunActive(run.data);
  if (sources.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t.noSources}
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={t.bySource} data-testid="run-sources">
      <TableHead>
        <TableRow>
          <TableCell>{t.source}</TableCell>
          <TableCell sx={{ minWidth: 200 }}>{t.batches}</TableCell>
          <TableCell align="right">{t.itemsChecked}</TableCell>
          <TableCell align="right">{t.findings}</TableCell>
          <TableCell align="right">{t.events}</TableCell>
          <TableCell>{t.state}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {sources.map((source) => (
          <TableRow key={source.type} data-testid={`run-source-${source.type}`}>
            <TableCell>{source.name}</TableCell>
            <TableCell>
              <ProgressBar
                done={source.batchesDone + source.batchesFailed}
                total={source.batchesTotal}
                indeterminate={active && source.batchesTotal === 0}
                color={source.batchesFailed > 0 ? 'error' : 'primary'}
                label={t.ofTotal(
                  formatNumber(source.batchesDone + source.batchesFailed),
                  formatNumber(source.batchesTotal),
                )}
              />
            </TableCell>
            <TableCell align="right">{formatNumber(source.itemsChecked)}</TableCell>
            <TableCell align="right">{formatNumber(source.findings)}</TableCell>
            <TableCell align="right">{formatNumber(source.events)}</TableCell>
            <TableCell>
              {source.batchesFailed > 0 ? (
                <>
                  <Chip size="small" color="error" label={t.sourceFailed(source.batchesFailed)} />
                  {source.lastError && (
                    <Typography variant="caption" color="error" component="p">
                      {source.lastError}
                    </Typography>
                  )}
                </>
              ) : !active || (source.batchesTotal > 0 && source.batchesDone >= source.batchesTotal) ? (
                <Chip size="small" color="success" variant="outlined" label={t.sourceDone} />
              ) : (
                <Chip size="small" variant="outlined" label={t.sourceRunning} />
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
