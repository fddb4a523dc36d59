import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
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
    <ResponsiveTable
      rows={sources}
      columns={sourceColumns(active)}
      getRowId={(source) => source.type}
      ariaLabel={t.bySource}
      rowOptions={(source) => ({ testId: `run-source-${source.type}` })}
    />
  );
}

type RunSource = NonNullable<ReturnType<typeof useCheckRun>['data']>['sources'][number];

const sourceColumns = (active: boolean): ResponsiveColumn<RunSource>[] => [
  { id: 'source', header: t.source, card: 'title', cell: (source) => source.name },
  {
    id: 'batches',
    header: t.batches,
    cellSx: { minWidth: 200 },
    cell: (source) => (
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
    ),
  },
  {
    id: 'itemsChecked',
    header: t.itemsChecked,
    align: 'right',
    cell: (source) => formatNumber(source.itemsChecked),
  },
  { id: 'findings', header: t.findings, align: 'right', cell: (source) => formatNumber(source.findings) },
  { id: 'events', header: t.events, align: 'right', cell: (source) => formatNumber(source.events) },
  {
    id: 'state',
    header: t.state,
    card: 'actions',
    cell: (source) =>
      source.batchesFailed > 0 ? (
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
      ),
  },
];
