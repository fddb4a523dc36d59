import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Upload, UploadDetail } from '@pledgewatch/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  UploadHeaderSummary,
  UploadMappingForm,
  UploadSheetPicker,
} from '@/components/uploads/upload-columns';
import { UploadStatusChip } from '@/components/uploads/upload-status-chip';
import { texts as shared } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatBytes } from '@/lib/format';

const UPLOAD_PARAM = 'upload';

/** The wording of one upload screen; the optional parts switch on the matching step detail. */
export type UploadFlowTexts = {
  title: string;
  hint: string;
  templateHint: string;
  sending: string;
  /** The caption under the send progress; without it the bar has none. */
  sentPercent?: (percent: number) => string;
  validating: string;
  importing: string;
  /** Captions under the check and import progress; without them the bar runs without a figure. */
  progress?: {
    waiting: string;
    validating: (rows: number, percent: number) => string;
    importing: (done: number, total: number) => string;
  };
  previewHint: string;
  nothingToAdd: string;
  confirm: string;
  cancel: string;
  /** A confirmation before cancelling a checked upload; without it the cancel is immediate. */
  cancelDialog?: { title: string; message: (fileName: string) => string; confirmLabel: string };
  done: string;
  doneWithErrors: string;
  failed: string;
  cancelled: string;
  another: string;
};

/** The send call's input: both kinds send a multipart file with progress and an abort signal. */
export type UploadSendInput = { file: File; signal?: AbortSignal; onProgress?: (percent: number) => void };
type Callbacks<T> = { onSuccess?: (data: T) => void; onError?: (error: Error) => void };
/** What the flow needs of a mutation (TanStack's result fits). */
export type UploadMutation<TInput> = {
  mutate: (input: TInput, callbacks?: Callbacks<Upload>) => void;
  isPending: boolean;
};

/** The calls of one upload kind, as hooks (module-level functions, so the hook order stays fixed). */
export type UploadFlowHooks = {
  useSend: () => UploadMutation<UploadSendInput>;
  useUpload: (id: string) => UseQueryResult<UploadDetail>;
  useConfirm: (callbacks: Callbacks<Upload>) => UploadMutation<string>;
  useCancel: (callbacks: Callbacks<Upload>) => UploadMutation<string>;
};

export type UploadFlowProps = {
  texts: UploadFlowTexts;
  hooks: UploadFlowHooks;
  /** Shown instead of the flow to a viewer (who cannot upload). */
  viewerNotice: ReactNode;
  /** The file box with the kind's own checks: a file to send, or a message for the user. */
  dropZone: (handlers: { onFile: (file: File) => void; onError: (message: string) => void }) => ReactNode;
  /** The template download links beside `texts.templateHint`. */
  templateLinks: ReactNode;
  /** The line under the file name (file facts, counts). */
  headerDetails: (upload: UploadDetail) => ReactNode;
  /** The checked rows before confirmation (counts, columns, accepted and rejected rows). */
  preview: (upload: UploadDetail) => ReactNode;
  /** What is shown after the import (counts, rejected rows). */
  result: (upload: UploadDetail) => ReactNode;
  /** The buttons after the import, before «upload another file». */
  doneActions: ReactNode;
  /** Buttons after «upload another file» on every final step (e.g. the upload history). */
  moreActions?: ReactNode;
};

type Sending = { file: File; percent: number };

/**
 * A file upload in four steps: send (upload progress, can be cancelled), check (processing
 * progress; when the columns are unsure, the mapping step first), preview with confirm or cancel
 * (and the header, sheet and columns, which can still be changed), result. The upload id sits in the URL, so a reload
 * returns to the same step. The kind (monitoring items, pledge events) brings its texts, calls and tables.
 */
export function UploadFlow(props: UploadFlowProps) {
  const { texts: t, hooks } = props;
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const uploadId = params.get(UPLOAD_PARAM);
  const [sending, setSending] = useState<Sending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const send = hooks.useSend();

  if (user?.role === 'viewer') {
    return <>{props.viewerNotice}</>;
  }

  const start = (file: File) => {
    setError(null);
    setSending({ file, percent: 0 });
    const controller = new AbortController();
    abort.current = controller;
    send.mutate(
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
        <UploadSendingView
          texts={t}
          sending={sending}
          onCancel={() => {
            abort.current?.abort();
            setSending(null);
          }}
        />
      ) : uploadId ? (
        <UploadView {...props} uploadId={uploadId} onRestart={reset} />
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
          {props.dropZone({ onFile: start, onError: setError })}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Typography variant="body2" color="text.secondary">
              {t.templateHint}
            </Typography>
            {props.templateLinks}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}

/** The send step; exported for the tests (a server render cannot start a send). */
export function UploadSendingView({
  texts: t,
  sending,
  onCancel,
}: {
  texts: UploadFlowTexts;
  sending: Sending;
  onCancel: () => void;
}) {
  return (
    <Stack spacing={2} data-testid="upload-sending">
      <Typography variant="h6" component="h2">
        {t.sending}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {`${sending.file.name} · ${formatBytes(sending.file.size)}`}
      </Typography>
      <ProgressLine value={sending.percent} caption={t.sentPercent?.(sending.percent)} label={t.sending} />
      <Box>
        <Button onClick={onCancel}>{shared.common.cancel}</Button>
      </Box>
    </Stack>
  );
}

function ProgressLine({ value, caption, label }: { value: number | null; caption?: string; label: string }) {
  return (
    <Stack spacing={0.75}>
      <LinearProgress
        variant={value === null ? 'indeterminate' : 'determinate'}
        value={value ?? undefined}
        aria-label={label}
        sx={{ height: 8, borderRadius: 4 }}
      />
      {caption && (
        <Typography variant="body2" color="text.secondary" data-testid="progress-caption">
          {caption}
        </Typography>
      )}
    </Stack>
  );
}

function UploadView(props: UploadFlowProps & { uploadId: string; onRestart: () => void }) {
  const { texts: t, hooks, uploadId, onRestart } = props;
  const upload = hooks.useUpload(uploadId);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const confirm = hooks.useConfirm({ onError: (error) => setActionError(getErrorMessage(error)) });
  const cancel = hooks.useCancel({
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
  const dialog = t.cancelDialog;

  return (
    <Stack spacing={2.5} data-testid="upload-view" data-status={data.status}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {data.fileName}
          </Typography>
          {props.headerDetails(data)}
        </Box>
        <UploadStatusChip status={data.status} label={data.statusLabel} />
      </Stack>
      {actionError && (
        <Alert severity="error" onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <UploadStep
        {...props}
        upload={data}
        onConfirm={() => {
          setActionError(null);
          confirm.mutate(data.id);
        }}
        confirming={confirm.isPending}
        cancelling={cancel.isPending}
        onCancel={() => {
          setActionError(null);
          if (dialog) {
            setConfirmingCancel(true);
          } else {
            cancel.mutate(data.id);
          }
        }}
      />
      {dialog && (
        <ConfirmDialog
          open={confirmingCancel}
          title={dialog.title}
          message={dialog.message(data.fileName)}
          confirmLabel={dialog.confirmLabel}
          danger
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate(data.id)}
          onClose={() => setConfirmingCancel(false)}
        />
      )}
    </Stack>
  );
}

type UploadStepProps = UploadFlowProps & {
  upload: UploadDetail;
  onConfirm: () => void;
  confirming: boolean;
  cancelling: boolean;
  onCancel: () => void;
  onRestart: () => void;
};

function UploadStep(props: UploadStepProps) {
  const { texts: t, upload, onConfirm, confirming, cancelling, onCancel, onRestart } = props;
  const { status, progress, counts } = upload;
  const [editingColumns, setEditingColumns] = useState(false);
  const toAdd = counts.accepted + counts.restored;
  const again = (
    <Button variant="outlined" onClick={onRestart}>
      {t.another}
    </Button>
  );

  if (status === 'received' || status === 'validating') {
    const percent = progress.percent === null ? null : Math.round(progress.percent);
    // Cancellable until the import starts: the check stops within a moment.
    return (
      <Stack spacing={2}>
        <ProgressLine
          label={t.validating}
          value={t.progress ? percent : null}
          caption={
            t.progress &&
            (percent === null ? t.progress.waiting : t.progress.validating(progress.rowsProcessed, percent))
          }
        />
        <Box>
          <Button color="error" onClick={onCancel} loading={cancelling}>
            {t.cancel}
          </Button>
        </Box>
      </Stack>
    );
  }

  if (status === 'importing') {
    const total = Math.max(toAdd, counts.rows, 1);
    const percent = Math.min(100, Math.round((progress.rowsProcessed / total) * 100));
    return (
      <ProgressLine
        label={t.importing}
        value={t.progress ? percent : null}
        caption={t.progress?.importing(progress.rowsProcessed, counts.rows)}
      />
    );
  }

  if (status === 'needs_mapping') {
    return (
      <Stack spacing={2.5}>
        {upload.mapping.question && <Alert severity="warning">{upload.mapping.question}</Alert>}
        <UploadSheetPicker upload={upload} />
        {upload.skippedAbove && (
          <Typography variant="body2" color="text.secondary" data-testid="header-row">
            {upload.skippedAbove}
          </Typography>
        )}
        <UploadMappingForm upload={upload} />
        <Box>
          <Button color="error" onClick={onCancel} disabled={cancelling}>
            {t.cancel}
          </Button>
        </Box>
      </Stack>
    );
  }

  if (status === 'validated' && editingColumns) {
    return <UploadMappingForm upload={upload} onCancel={() => setEditingColumns(false)} />;
  }

  if (status === 'validated') {
    return (
      <Stack spacing={2.5}>
        <UploadHeaderSummary upload={upload} onEditMapping={() => setEditingColumns(true)} />
        <Alert severity={counts.rejected > 0 ? 'warning' : 'info'}>
          {toAdd > 0 ? t.previewHint : t.nothingToAdd}
        </Alert>
        {props.preview(upload)}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" onClick={onConfirm} loading={confirming} disabled={toAdd === 0}>
            {t.confirm}
          </Button>
          <Button color="error" onClick={onCancel} disabled={confirming || cancelling}>
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
          {status === 'done' ? t.done : t.doneWithErrors}
          {/* A file with nothing new ends without a confirmation: say why nothing was added. */}
          {toAdd === 0 && ` ${t.nothingToAdd}`}
        </Alert>
        {props.result(upload)}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {props.doneActions}
          {again}
          {props.moreActions}
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
        {props.moreActions}
      </Stack>
    </Stack>
  );
}
