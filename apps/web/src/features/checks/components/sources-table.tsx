import CachedIcon from '@mui/icons-material/Cached';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type CacheInvalidateBody, type Source, sourceProviderLabel } from '@pledgewatch/contract';
import { Fragment, useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { TableQueryState } from '@/components/ui/table-states';
import { TableToolbar } from '@/components/ui/table-toolbar';
import { texts } from '@/features/checks/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useSources } from '../api/get-sources';
import { useInvalidateCache } from '../api/invalidate-cache';
import { ImportDatasetDialog } from './import-dataset-dialog';
import { SourceBudget } from './source-budget';
import { SourceImportProgress } from './source-import-progress';

const t = texts.checks.sources;

const ms = (value: number | null) =>
  value === null ? texts.common.dash : t.ms(formatNumber(Math.round(value)));

/** Both kinds of use: a one-time check's single answer and a regular run's batch. */
function Latency({
  item,
  batch,
  batchItems,
}: {
  item: number | null;
  batch: number | null;
  batchItems: number | null;
}) {
  if (item === null && batch === null) {
    return <>{texts.common.dash}</>;
  }
  return (
    <Tooltip title={t.latencyHint}>
      <span>
        {item !== null && <LatencyLine text={t.oneTimeLatency(ms(item))} />}
        {batch !== null && <LatencyLine text={t.batchLatency(ms(batch), formatNumber(batchItems ?? 0))} />}
      </span>
    </Tooltip>
  );
}

/**
 * «пакет из 2 779: 1 013 мс»: the line may break after its colon only, so the column is as wide as
 * its longer half, not the whole line (the sources table was wider than its card at 1400 px).
 */
function LatencyLine({ text }: { text: string }) {
  const parts = text.split(/(?<=:) /);
  return (
    <Typography variant="body2">
      {parts.map((part, index) => (
        <Fragment key={part}>
          {index > 0 && ' '}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {part}
          </Box>
        </Fragment>
      ))}
    </Typography>
  );
}

type SourcesTableProps = { canImport: boolean; canResetCache: boolean };

/** Every source with its freshness and speed (Spectrumdata-style), imports and cache resets. */
export function SourcesTable({ canImport, canResetCache }: SourcesTableProps) {
  const sources = useSources();
  const [importing, setImporting] = useState<Source | null>(null);
  const invalidate = useInvalidateCache({
    onSuccess: (answer) => {
      setResetting(null);
      toast.success(t.cacheCleared(formatNumber(answer.removed)));
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  // Clearing the cache cannot be undone: it asks first.
  const [resetting, setResetting] = useState<{ type: CacheInvalidateBody['type']; name: string } | null>(
    null,
  );
  const reset = (type: CacheInvalidateBody['type'], name: string) => setResetting({ type, name });
  const showActions = canImport || canResetCache;
  const columns: ResponsiveColumn<Source>[] = [
    {
      id: 'name',
      header: t.name,
      card: 'title',
      cell: (source) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {source.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {source.description}
            {/* Where its own column is hidden (below 1536 px), the provider is named here. */}
            <Box component="span" sx={{ display: { xs: 'none', md: 'inline', xl: 'none' } }}>
              {' · '}
              {sourceProviderLabel(source)}
            </Box>
          </Typography>
        </>
      ),
    },
    {
      id: 'adapter',
      header: t.adapter,
      // Ten columns do not fit a 1400 px desktop: the provider and the median answer wait for 1536 px.
      sx: { display: { md: 'none', xl: 'table-cell' } },
      cell: (source) => <Chip size="small" variant="outlined" label={sourceProviderLabel(source)} />,
    },
    {
      id: 'version',
      header: t.version,
      align: 'right',
      cell: (source) => (
        <>
          {source.activeVersion ?? texts.common.dash}
          {source.importing && <SourceImportProgress importing={source.importing} />}
        </>
      ),
    },
    {
      id: 'lastRefresh',
      header: t.lastRefresh,
      cellSx: { whiteSpace: 'nowrap' },
      cell: (source) => formatDateTime(source.lastRefreshAt),
    },
    {
      id: 'records',
      header: t.records,
      align: 'right',
      cell: (source) => (source.recordCount === null ? texts.common.dash : formatNumber(source.recordCount)),
    },
    {
      id: 'p50',
      header: t.p50,
      align: 'right',
      sx: { display: { md: 'none', xl: 'table-cell' } },
      cell: (source) => (
        <Latency item={source.answerP50Ms} batch={source.batchP50Ms} batchItems={source.batchItemsP50} />
      ),
    },
    {
      id: 'p95',
      header: t.p95,
      align: 'right',
      cell: (source) => (
        <Latency item={source.answerP95Ms} batch={source.batchP95Ms} batchItems={source.batchItemsP50} />
      ),
    },
    {
      id: 'budget',
      header: t.budget,
      // Its lines wrap (the spend line alone was wider than the column's share of a 1400 px card).
      cellSx: { minWidth: 190 },
      cell: (source) => <SourceBudget source={source} />,
    },
    {
      id: 'failures',
      header: t.failures,
      cell: (source) =>
        source.consecutiveFailures > 0 ? (
          <Tooltip
            title={[
              source.lastError,
              source.lastFailureAt && t.lastFailure(formatDateTime(source.lastFailureAt)),
            ]
              .filter(Boolean)
              .join(' · ')}
          >
            <Chip size="small" color="error" label={t.failuresInRow(source.consecutiveFailures)} />
          </Tooltip>
        ) : (
          <Chip size="small" color="success" variant="outlined" label={t.healthy} />
        ),
    },
    ...(showActions
      ? [
          {
            id: 'actions',
            header: texts.common.actions,
            align: 'right',
            card: 'primary',
            cellSx: { whiteSpace: 'nowrap' },
            cell: (source) => (
              <>
                {canImport && source.adapter === 'dataset' && (
                  <Button
                    size="small"
                    startIcon={<UploadFileOutlinedIcon />}
                    onClick={() => setImporting(source)}
                  >
                    {t.import}
                  </Button>
                )}
                {canResetCache && source.adapter === 'remote' && (
                  <Button
                    size="small"
                    startIcon={<CachedIcon />}
                    loading={invalidate.isPending && invalidate.variables?.type === source.type}
                    onClick={() => reset(source.type, source.name)}
                  >
                    {t.resetCache}
                  </Button>
                )}
              </>
            ),
          } satisfies ResponsiveColumn<Source>,
        ]
      : []),
  ];

  return (
    <Paper variant="outlined" component="section" aria-label={t.heading}>
      <TableToolbar title={t.heading} hint={t.hint}>
        {canResetCache && (
          <Button
            variant="outlined"
            startIcon={<CachedIcon />}
            loading={invalidate.isPending && invalidate.variables?.type === 'all'}
            onClick={() => reset('all', t.allSources)}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {t.resetAll}
          </Button>
        )}
      </TableToolbar>
      <TableQueryState query={sources} />
      <ResponsiveTable
        rows={sources.data?.items ?? []}
        columns={columns}
        getRowId={(source) => source.type}
        ariaLabel={t.heading}
        rowOptions={(source) => ({ testId: `source-row-${source.type}` })}
      />
      <ImportDatasetDialog source={importing} onClose={() => setImporting(null)} />
      <ConfirmDialog
        open={resetting !== null}
        title={t.confirmResetTitle}
        message={t.confirmReset(resetting?.name ?? '')}
        confirmLabel={resetting?.type === 'all' ? t.resetAll : t.resetCache}
        danger
        pending={invalidate.isPending}
        onConfirm={() => resetting && invalidate.mutate({ type: resetting.type })}
        onClose={() => setResetting(null)}
      />
    </Paper>
  );
}
