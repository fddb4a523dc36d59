import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UploadDetail } from '@pledgewatch/contract';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { UploadFileLinks } from '@/components/uploads/upload-file-links';
import { UploadStatusChip } from '@/components/uploads/upload-status-chip';
import { paths } from '@/config/paths';
import { texts } from '@/features/monitoring-upload/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatBytes, formatNumber } from '@/lib/format';
import { useCancelUpload } from '../api/cancel-upload';
import { useConfirmUpload } from '../api/confirm-upload';
import { useCreateUpload } from '../api/create-upload';
import { useUpload } from '../api/get-upload';
import { FileDropZone } from './file-drop-zone';
import { UploadCounts } from './upload-counts';
import { AcceptedRowsTable, RejectedRowsTable } from './upload-preview-tables';
import { ViewerNotice } from './viewer-notice';

const t = texts.monitoringUpload.file;
const UPLOAD_PARAM = 'upload';

type Sending = { file: File; percent: number };

/**
 * File upload in four steps: send (upload progress), check (processing progress), preview with
 * confirm or cancel, result. The upload id sits in the URL, so a reload returns to the same step.
 */
export default function UploadTablePage() {
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const uploadId = params.get(UPLOAD_PARAM);
  const [sending, setSending] = useState<Sending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const create = useCreateUpload();

  if (user?.role === 'viewer') {
    return <ViewerNotice />;
  }

  const start = (file: File) => {
    setError(null);
    setSending({ file, percent: 0 });
    const controller = new AbortController();
    abort.current = controller;
    create.mutate(
      {
        file,
        signal: controller.signal,
        onProgress: (percent) => setSending((current) => (current ? { ...current, percent } : current)),
      },
      {
        onSuccess: (upload) => {
          setSending(null);
          setParams({ [UPLOAD_PARAM]: upload.id });
        },
        onError: (failure) => {
          setSending(null);
          if (!(failure instanceof DOMException && failure.name === 'AbortError')) {
            setError(getErrorMessage(failure));
          }
        },
      },
    );
  };

  const reset = () => {
    setError(null);
    setParams({});
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      {sending ? (
        <SendingView
          sending={sending}
          onCancel={() => {
            abort.current?.abort();
            setSending(null);
          }}
        />
      ) : uploadId ? (
        <UploadView uploadId={uploadId} onRestart={reset} />
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
          <FileDropZone onFile={start} onError={setError} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Typography variant="body2" color="text.secondary">
              {t.templateHint}
            </Typography>
            <UploadFileLinks label={t.template} />
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}

function SendingView({ sending, onCancel }: { sending: Sending; onCancel: () => void }) {
  return (
    <Stack spacing={2} data-testid="upload-sending">
      <Typography variant="h6" component="h2">
        {t.sending}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {`${sending.file.name} · ${formatBytes(sending.file.size)}`}
      </Typography>
      <ProgressLine value={sending.percent} caption={t.sentPercent(sending.percent)} label={t.sending} />
      <Box>
        <Button onClick={onCancel}>{texts.common.cancel}</Button>
      </Box>
    </Stack>
  );
}

function ProgressLine({ value, caption, label }: { value: number | null; caption: string; label: string }) {
  return (
    <Stack spacing={0.75}>
      <LinearProgress
        variant={value === null ? 'indeterminate' : 'determinate'}
        value={value ?? undefined}
        aria-label={label}
        sx={{ height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" color="text.secondary" data-testid="progress-caption">
        {caption}
      </Typography>
    </Stack>
  );
}

function UploadView({ uploadId, onRestart }: { uploadId: string; onRestart: () => void }) {
  const upload = useUpload(uploadId);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const confirm = useConfirmUpload({ onError: (error) => setActionError(getErrorMessage(error)) });
  const cancel = useCancelUpload({
    onSuccess: () => setConfirmingCancel(false),
    onError: (error) => {
      setConfirmingCancel(false);
      setActionError(getErrorMessage(error));
    },
  });

  if (upload.isPending) {
    return (
      <Stack spacing={1}>
        <Skeleton height={36} width="40%" />
        <Skeleton height={16} />
        <Skeleton height={80} />
      </Stack>
    );
  }
  if (upload.isError) {
    return (
      <Stack spacing={2}>
        <Alert severity="error">{getErrorMessage(upload.error)}</Alert>
        <Box>
          <Button variant="contained" onClick={onRestart}>
            {t.another}
          </Button>
        </Box>
      </Stack>
    );
  }
  const data = upload.data;

  return (
    <Stack spacing={2.5} data-testid="upload-view" data-status={data.status}>
      <UploadHeader upload={data} />
      {actionError && (
        <Alert severity="error" onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <UploadStep
        upload={data}
        onConfirm={() => {
          setActionError(null);
          confirm.mutate(data.id);
        }}
        confirming={confirm.isPending}
        onCancel={() => setConfirmingCancel(true)}
        onRestart={onRestart}
      />
      <ConfirmDialog
        open={confirmingCancel}
        title={t.cancelTitle}
        message={t.cancelMessage(data.fileName)}
        confirmLabel={t.cancelConfirm}
        danger
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate(data.id)}
        onClose={() => setConfirmingCancel(false)}
      />
    </Stack>
  );
}

function UploadHeader({ upload }: { upload: UploadDetail }) {
  const facts = [
    formatBytes(upload.fileSize),
    upload.format?.toUpperCase(),
    upload.encoding ? t.encoding(upload.encoding) : null,
    upload.delimiter ? t.delimiter(upload.delimiter === '\t' ? t.tab : upload.delimiter) : null,
  ].filter(Boolean);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {upload.fileName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {facts.join(' · ')}
        </Typography>
      </Box>
      <UploadStatusChip status={upload.status} label={upload.statusLabel} />
    </Stack>
  );
}

type UploadStepProps = {
  upload: UploadDetail;
  onConfirm: () => void;
  confirming: boolean;
  onCancel: () => void;
  onRestart: () => void;
};

function UploadStep({ upload, onConfirm, confirming, onCancel, onRestart }: UploadStepProps) {
  const { status, progress, counts } = upload;
  const again = (
    <Button variant="outlined" onClick={onRestart}>
      {t.another}
    </Button>
  );
  const toHistory = (
    <Button component={Link} to={paths.monitoringUploadsHistory.getHref()}>
      {t.toHistory}
    </Button>
  );

  if (status === 'received' || status === 'validating') {
    return (
      <ProgressLine
        label={t.validating}
        value={progress.percent === null ? null : Math.round(progress.percent)}
        caption={
          progress.percent === null
            ? t.waiting
            : t.validatingProgress(formatNumber(progress.rowsProcessed), Math.round(progress.percent))
        }
      />
    );
  }

  if (status === 'importing') {
    const total = Math.max(counts.accepted + counts.restored, counts.rows, 1);
    const percent = Math.min(100, Math.round((progress.rowsProcessed / total) * 100));
    return (
      <ProgressLine
        label={t.importing}
        value={percent}
        caption={t.importingProgress(formatNumber(progress.rowsProcessed), formatNumber(counts.rows))}
      />
    );
  }

  if (status === 'validated') {
    return (
      <Stack spacing={2.5}>
        <Alert severity={counts.rejected > 0 ? 'warning' : 'info'}>
          {counts.accepted + counts.restored > 0 ? t.previewHint : t.nothingToAdd}
        </Alert>
        <UploadCounts counts={counts} stage="preview" />
        <ColumnsInfo upload={upload} />
        <AcceptedRowsTable upload={upload} />
        <RejectedRowsTable upload={upload} />
        {counts.rejected > 0 && <ErrorFile uploadId={upload.id} />}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button
            variant="contained"
            onClick={onConfirm}
            loading={confirming}
            disabled={counts.accepted + counts.restored === 0}
          >
            {t.confirm}
          </Button>
          <Button color="error" onClick={onCancel} disabled={confirming}>
            {t.cancel}
          </Button>
        </Stack>
      </Stack>
    );
  }

  if (status === 'done' || status === 'done_with_errors') {
    return (
      <Stack spacing={2.5} data-testid="upload-result">
        <Alert severity={status === 'done' ? 'success' : 'warning'} icon={<CheckCircleOutlinedIcon />}>
          {status === 'done' ? t.doneHint : t.doneWithErrorsHint}
        </Alert>
        <UploadCounts counts={counts} stage="result" />
        <RejectedRowsTable upload={upload} />
        {counts.rejected > 0 && <ErrorFile uploadId={upload.id} />}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button component={Link} to={paths.monitoringItems.getHref()} variant="contained">
            {t.toPortfolio}
          </Button>
          {again}
          {toHistory}
        </Stack>
      </Stack>
    );
  }

  return (
    <Stack spacing={2}>
      {status === 'failed' ? (
        <Alert severity="error">{upload.errorMessage ?? t.failed}</Alert>
      ) : (
        <Alert severity="info">{t.cancelled}</Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {again}
        {toHistory}
      </Stack>
    </Stack>
  );
}

function ColumnsInfo({ upload }: { upload: UploadDetail }) {
  const found = upload.columns.filter((column) => column.header !== null);
  if (found.length === 0 && upload.ignoredColumns.length === 0) {
    return null;
  }
  return (
    <Stack spacing={0.5}>
      <Typography variant="body2" color="text.secondary">
        {t.columnsFound(
          found.map((column) => `${column.header} → ${column.title}`).join(', ') || texts.common.dash,
        )}
      </Typography>
      {upload.ignoredColumns.length > 0 && (
        <Typography variant="body2" color="warning.main">
          {t.columnsIgnored(upload.ignoredColumns.join(', '))}
        </Typography>
      )}
    </Stack>
  );
}

function ErrorFile({ uploadId }: { uploadId: string }): ReactNode {
  return (
    <Stack spacing={1} data-testid="error-file">
      <Typography variant="body2" color="text.secondary">
        {t.errorFileHint}
      </Typography>
      <UploadFileLinks uploadId={uploadId} label={t.errorFile} />
    </Stack>
  );
}
