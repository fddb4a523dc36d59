import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  UPLOAD_KIND_LABELS,
  UPLOAD_KINDS,
  UPLOAD_STATUS_LABELS,
  UPLOAD_STATUSES,
  type Upload,
  type UploadKind,
  type UploadStatus,
} from '@pledgewatch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, Link as RouterLink } from 'react-router';
import { FilterDrawer } from '@/components/ui/filter-drawer';
import { Page } from '@/components/ui/page';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { ServerPagination } from '@/components/ui/server-pagination';
import { UploadFileLinks } from '@/components/uploads/upload-file-links';
import { UploadStatusChip } from '@/components/uploads/upload-status-chip';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { paths } from '@/config/paths';
import { texts } from '@/features/uploads-history/texts';
import { getErrorMessage } from '@/lib/api-client';
import { prefetchWhenSignedIn, useUser } from '@/lib/auth';
import { formatDateTime, formatNumber } from '@/lib/format';
import { parsePagination } from '@/lib/pagination';
import { useUrlState } from '@/lib/use-url-state';
import { type UploadsListQuery, uploadsQueryOptions, useUploads } from '../api/get-uploads';

const t = texts.uploadsHistory;
const WIDE = { display: { xs: 'none', md: 'table-cell' } } as const;
const NUMBER = { textAlign: 'right', whiteSpace: 'nowrap' } as const;

function parseQuery(params: URLSearchParams): UploadsListQuery {
  const kind = params.get('kind');
  const status = params.get('status');
  return {
    ...parsePagination(params),
    kind: (UPLOAD_KINDS as readonly string[]).includes(kind ?? '') ? (kind as UploadKind) : undefined,
    status: (UPLOAD_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as UploadStatus)
      : undefined,
  };
}

export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    const query = parseQuery(new URL(request.url).searchParams);
    prefetchWhenSignedIn(queryClient, () => queryClient.prefetchQuery(uploadsQueryOptions(query)));
    return null;
  };

/** Every upload of the organisation, newest first; running ones update themselves. */
export default function UploadsHistoryPage() {
  const [params, setParams] = useUrlState();
  const user = useUser();
  const canUpload = user !== undefined && user.role !== 'viewer';
  const query = parseQuery(params);
  const uploads = useUploads(query);

  const update = (changes: Record<string, string | number | undefined>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '' || (key === 'page' && value === 1)) {
            next.delete(key);
          } else {
            next.set(key, String(value));
          }
        }
        return next;
      },
      { replace: true },
    );

  const filtered = Boolean(query.kind || query.status);

  return (
    <Page
      title={t.title}
      actions={
        canUpload && (
          <Button component={RouterLink} to={paths.monitoringUploadTable.getHref()} variant="contained">
            {t.upload}
          </Button>
        )
      }
    >
      <Paper variant="outlined">
        <FilterDrawer
          activeCount={[query.kind, query.status].filter(Boolean).length}
          aside={
            <Typography variant="body2" color="text.secondary">
              {t.timeZone}
            </Typography>
          }
        >
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ p: 2, alignItems: { sm: 'center' } }}
          >
            <TextField
              select
              size="small"
              label={t.kind}
              value={query.kind ?? ''}
              onChange={(event) => update({ kind: event.target.value, page: 1 })}
              sx={{ width: { sm: 240 } }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t.allKinds}</MenuItem>
              {UPLOAD_KINDS.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {UPLOAD_KIND_LABELS[kind]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t.status}
              value={query.status ?? ''}
              onChange={(event) => update({ status: event.target.value, page: 1 })}
              sx={{ width: { sm: 300 } }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t.allStatuses}</MenuItem>
              {UPLOAD_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {UPLOAD_STATUS_LABELS[status]}
                </MenuItem>
              ))}
            </TextField>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ ml: { sm: 'auto' }, whiteSpace: 'nowrap' }}
            >
              {t.timeZone}
            </Typography>
          </Stack>
        </FilterDrawer>
        <Box sx={{ height: 2 }}>
          {uploads.isFetching && !uploads.isPending && <LinearProgress sx={{ height: 2 }} />}
        </Box>
        {uploads.isError && (
          <Alert severity="error" sx={{ m: 2 }}>
            {getErrorMessage(uploads.error)}
          </Alert>
        )}
        <ResponsiveTable
          rows={uploads.data?.items ?? []}
          columns={UPLOAD_COLUMNS}
          getRowId={(upload) => upload.id}
          ariaLabel={t.title}
          rowOptions={(upload) => ({ testId: 'upload-row', data: { 'upload-id': upload.id } })}
          loading={uploads.isPending}
          skeletonRows={3}
          showEmpty={Boolean(uploads.data)}
          empty={filtered ? t.emptyFiltered : t.empty}
        />
        <ServerPagination
          count={uploads.data?.total}
          page={query.page}
          pageSize={query.pageSize}
          onChange={(page, pageSize) =>
            update({ page, pageSize: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize })
          }
        />
      </Paper>
    </Page>
  );
}

const RUNNING: readonly UploadStatus[] = ['received', 'validating', 'importing'];

const uploadHref = (upload: Upload) => {
  // Every upload reopens on its own upload screen (to confirm a checked file or see its result).
  const screen = upload.kind === 'items' ? paths.monitoringUploadTable : paths.pledgesUploadEventsTable;
  return `${screen.getHref()}?${new URLSearchParams({ upload: upload.id })}`;
};

function UploadStatusCell({ upload }: { upload: Upload }) {
  const running = RUNNING.includes(upload.status);
  const percent =
    upload.status === 'importing'
      ? Math.min(100, Math.round((upload.progress.rowsProcessed / Math.max(upload.counts.rows, 1)) * 100))
      : upload.progress.percent;
  return (
    <Stack spacing={0.75}>
      <Box>
        <UploadStatusChip status={upload.status} label={upload.statusLabel} />
      </Box>
      {running && (
        <LinearProgress
          variant={percent === null ? 'indeterminate' : 'determinate'}
          value={percent ?? undefined}
          aria-label={t.progress(upload.fileName)}
          sx={{ height: 6, borderRadius: 3 }}
        />
      )}
      {upload.status === 'failed' && upload.errorMessage && (
        <Typography variant="caption" color="error">
          {upload.errorMessage}
        </Typography>
      )}
    </Stack>
  );
}

const count = (value: number) => formatNumber(value);

const UPLOAD_COLUMNS: ResponsiveColumn<Upload>[] = [
  {
    id: 'file',
    header: t.file,
    card: 'title',
    cellSx: { maxWidth: 320 },
    cell: (upload) => (
      <>
        <Link
          component={RouterLink}
          to={uploadHref(upload)}
          sx={{ overflowWrap: 'anywhere', fontWeight: 500, display: 'inline-block', minWidth: { sm: 150 } }}
        >
          {upload.fileName}
        </Link>
        <Typography variant="caption" color="text.secondary" component="div">
          {`${formatDateTime(upload.createdAt)} · ${UPLOAD_KIND_LABELS[upload.kind]}`}
        </Typography>
      </>
    ),
  },
  {
    id: 'author',
    header: t.author,
    sx: WIDE,
    card: 'secondary',
    cell: (upload) => upload.author?.fullName ?? texts.common.dash,
  },
  {
    id: 'status',
    header: t.status,
    cellSx: { minWidth: 160 },
    cell: (upload) => <UploadStatusCell upload={upload} />,
  },
  {
    id: 'rows',
    header: t.rows,
    sx: { ...WIDE, ...NUMBER },
    cell: (upload) => count(upload.counts.rows),
  },
  {
    id: 'accepted',
    header: t.accepted,
    sx: { ...WIDE, ...NUMBER },
    cell: (upload) => count(upload.counts.accepted + upload.counts.restored),
  },
  {
    id: 'duplicates',
    header: t.duplicates,
    sx: { ...WIDE, ...NUMBER },
    cell: (upload) => count(upload.counts.duplicates),
  },
  {
    id: 'rejected',
    header: t.rejected,
    sx: NUMBER,
    cell: (upload) => (
      <Box component="span" sx={{ color: upload.counts.rejected > 0 ? 'error.main' : undefined }}>
        {count(upload.counts.rejected)}
      </Box>
    ),
  },
  {
    id: 'errorFile',
    header: t.errorFile,
    cell: (upload) =>
      upload.counts.rejected > 0 ? (
        // The links may stack: on one line they pushed the table past its box at 1400 px.
        <UploadFileLinks
          uploadId={upload.id}
          label={(format) => format}
          ariaLabel={(format) => t.errorFileLink(format, upload.fileName)}
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {texts.common.dash}
        </Typography>
      ),
  },
];
