import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { pledgeEndpoints, UPLOAD_MAX_BYTES_DEFAULT, type UploadDetail } from '@pledgewatch/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FileDropZone } from '@/components/uploads/file-drop-zone';
import { UploadFileLinks } from '@/components/uploads/upload-file-links';
import { UploadStatusChip } from '@/components/uploads/upload-status-chip';
import { paths } from '@/config/paths';
import { texts } from '@/features/pledge-upload-events/texts';
import { endpointUrl, getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatBytes } from '@/lib/format';
import { useDecidePledgeUpload } from '../api/decide-pledge-upload';
import { usePledgeUpload } from '../api/get-pledge-upload';
import { useUploadPledgeEvents } from '../api/upload-pledge-events';

const t = texts.pledgeUploadEvents.file;
const UPLOAD_PARAM = 'upload';

/** A file of pledge notifications: send, check (progress), preview with errors, confirm, result. */
export default function UploadEventsTablePage() {
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const uploadId = params.get(UPLOAD_PARAM);
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useUploadPledgeEvents();

  if (user?.role === 'viewer') {
    return <Alert severity="info">{texts.pledgeUploadEvents.form.viewer}</Alert>;
  }

  const take = (file: File) => {
    const extension = file.name.split('.').pop()?.toLowerCase();
    if (extension !== 'csv' && extension !== 'xlsx') {
      setError(t.wrongType(file.name));
      return;
    }
    setError(null);
    setPercent(0);
    send.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: (upload) => {
          setPercent(null);
          setParams({ [UPLOAD_PARAM]: upload.id });
        },
        onError: (failure) => {
          setPercent(null);
          setError(getErrorMessage(failure));
        },
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      {percent !== null ? (
        <Stack spacing={1.5}>
          <Typography variant="h6" component="h2">
            {t.sending}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label={t.sending}
            sx={{ height: 8, borderRadius: 4 }}
          />
        </Stack>
      ) : uploadId ? (
        <UploadView uploadId={uploadId} onRestart={() => setParams({})} />
      ) : (
        <Stack spacing={2.5}>
          <div>
            <Typography variant="h6" component="h2">
              {t.title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t.hint}
            </Typography>
          </div>
          {error && (
            <Alert severity="error" role="alert" onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          <FileDropZone
            title={t.dropTitle}
            hint={`${t.dropHint} · CSV, XLSX · ${formatBytes(UPLOAD_MAX_BYTES_DEFAULT)}`}
            chooseLabel={t.choose}
            onFile={take}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Typography variant="body2" color="text.secondary">
              {t.templateHint}
            </Typography>
            <UploadFileLinks
              href={(format) => endpointUrl(pledgeEndpoints.uploadTemplate, { query: { format } })}
              label={t.template}
            />
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}

function UploadView({ uploadId, onRestart }: { uploadId: string; onRestart: () => void }) {
  const upload = useUpload(uploadId);
  const [actionError, setActionError] = useState<string | null>(null);
  // Cancelling cannot be undone (the file must be sent again): it asks first.
  const [cancelling, setCancelling] = useState(false);
  const decide = useDecidePledgeUpload({ onError: (error) => setActionError(getErrorMessage(error)) });
  if (upload.isPending) {
    return <Skeleton height={120} />;
  }
  if (upload.isError) {
    return <Alert severity="error">{getErrorMessage(upload.error)}</Alert>;
  }
  const data = upload.data;
  const { counts, status } = data;
  const again = (
    <Button variant="outlined" onClick={onRestart}>
      {t.another}
    </Button>
  );
  return (
    <Stack spacing={2.5} data-testid="upload-view" data-status={status}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {data.fileName}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="upload-counts">
            {t.counts(counts.rows, counts.accepted, counts.duplicates, counts.rejected)}
          </Typography>
        </Box>
        <UploadStatusChip status={status} label={data.statusLabel} />
      </Stack>
      {actionError && (
        <Alert severity="error" onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      {(status === 'received' || status === 'validating' || status === 'importing') && (
        <LinearProgress
          aria-label={status === 'importing' ? t.importing : t.validating}
          sx={{ height: 8, borderRadius: 4 }}
        />
      )}
      {status === 'validated' && (
        <>
          <Alert severity={counts.rejected > 0 ? 'warning' : 'info'}>
            {counts.accepted > 0 ? t.previewHint : t.nothingToAdd}
          </Alert>
          <PreviewTable upload={data} />
          <ErrorsTable upload={data} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button
              variant="contained"
              disabled={counts.accepted === 0}
              loading={decide.isPending}
              onClick={() => decide.mutate({ id: data.id, decision: 'confirm' })}
            >
              {t.confirm}
            </Button>
            <Button color="error" disabled={decide.isPending} onClick={() => setCancelling(true)}>
              {t.cancel}
            </Button>
          </Stack>
          <ConfirmDialog
            open={cancelling}
            title={t.confirmCancelTitle}
            message={t.confirmCancel}
            confirmLabel={t.cancel}
            danger
            pending={decide.isPending}
            onConfirm={() =>
              decide.mutate({ id: data.id, decision: 'cancel' }, { onSettled: () => setCancelling(false) })
            }
            onClose={() => setCancelling(false)}
          />
        </>
      )}
      {(status === 'done' || status === 'done_with_errors') && (
        <>
          <Alert severity={status === 'done' ? 'success' : 'warning'} data-testid="upload-result">
            {status === 'done' ? t.done : t.doneWithErrors}
          </Alert>
          <ErrorsTable upload={data} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button variant="contained" component={Link} to={paths.pledgesEventsRegistryTable.getHref()}>
              {t.toRegistry}
            </Button>
            <Button component={Link} to={paths.pledgesEventsRegistryPackages.getHref()}>
              {t.toPackages}
            </Button>
            {again}
          </Stack>
        </>
      )}
      {(status === 'failed' || status === 'cancelled') && (
        <>
          <Alert severity={status === 'failed' ? 'error' : 'info'}>
            {status === 'failed' ? (data.errorMessage ?? t.failed) : t.cancelled}
          </Alert>
          <Box>{again}</Box>
        </>
      )}
    </Stack>
  );
}

const useUpload = usePledgeUpload;

function PreviewTable({ upload }: { upload: UploadDetail }) {
  if (upload.preview.length === 0) {
    return null;
  }
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3">
        {t.preview}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" aria-label={t.preview}>
          <TableHead>
            <TableRow>
              <TableCell>{t.row}</TableCell>
              <TableCell>{t.event}</TableCell>
              <TableCell>{t.vehicle}</TableCell>
              <TableCell>{t.contract}</TableCell>
              <TableCell>{t.pledgor}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {upload.preview.map((row) => (
              <TableRow key={row.rowNumber}>
                <TableCell>{row.rowNumber}</TableCell>
                <TableCell>{row.label}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {row.displayIdentifier}
                  {row.warning && (
                    <Typography
                      variant="caption"
                      color="warning.main"
                      sx={{ display: 'block', fontFamily: 'inherit' }}
                    >
                      {row.warning}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{row.contractNumber}</TableCell>
                <TableCell>{row.pledgorName}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}

function ErrorsTable({ upload }: { upload: UploadDetail }) {
  if (upload.errors.length === 0) {
    return null;
  }
  return (
    <Stack spacing={1} data-testid="rejected-rows">
      <Typography variant="subtitle1" component="h3">
        {t.rejected}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" aria-label={t.rejected}>
          <TableHead>
            <TableRow>
              <TableCell>{t.row}</TableCell>
              <TableCell>{t.vehicle}</TableCell>
              <TableCell>{t.reason}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {upload.errors.map((row) => (
              <TableRow key={`${row.rowNumber}-${row.field}`}>
                <TableCell>{row.rowNumber}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{row.values.vin || texts.common.dash}</TableCell>
                <TableCell sx={{ color: 'error.main' }}>{row.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <UploadFileLinks uploadId={upload.id} label={t.errorFile} />
    </Stack>
  );
}
