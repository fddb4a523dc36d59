import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UploadDetail } from '@pledgewatch/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { UploadFileLinks } from '@/components/uploads/upload-file-links';
import { UploadFlow, type UploadFlowHooks, type UploadFlowTexts } from '@/components/uploads/upload-flow';
import { paths } from '@/config/paths';
import { texts } from '@/features/monitoring-upload/texts';
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

/** Exported for the route test of the send step. */
export const flowTexts: UploadFlowTexts = {
  title: t.title,
  hint: t.hint,
  templateHint: t.templateHint,
  sending: t.sending,
  sentPercent: t.sentPercent,
  validating: t.validating,
  importing: t.importing,
  progress: {
    waiting: t.waiting,
    validating: (rows, percent) => t.validatingProgress(formatNumber(rows), percent),
    importing: (done, total) => t.importingProgress(formatNumber(done), formatNumber(total)),
  },
  previewHint: t.previewHint,
  nothingToAdd: t.nothingToAdd,
  confirm: t.confirm,
  cancel: t.cancel,
  cancelDialog: { title: t.cancelTitle, message: t.cancelMessage, confirmLabel: t.cancelConfirm },
  done: t.doneHint,
  doneWithErrors: t.doneWithErrorsHint,
  failed: t.failed,
  cancelled: t.cancelled,
  another: t.another,
};

const hooks: UploadFlowHooks = {
  useSend: useCreateUpload,
  useUpload,
  useConfirm: useConfirmUpload,
  useCancel: useCancelUpload,
};

/** Monitoring items from a file: the shared upload flow with this kind's checks, tables and links. */
export default function UploadTablePage() {
  return (
    <UploadFlow
      texts={flowTexts}
      hooks={hooks}
      viewerNotice={<ViewerNotice />}
      dropZone={({ onFile, onError }) => <FileDropZone onFile={onFile} onError={onError} />}
      templateLinks={<UploadFileLinks label={t.template} />}
      headerDetails={(upload) => <FileFacts upload={upload} />}
      preview={(upload) => (
        <>
          <UploadCounts counts={upload.counts} stage="preview" />
          <AcceptedRowsTable upload={upload} />
          <RejectedRowsTable upload={upload} />
          {upload.counts.rejected > 0 && <ErrorFile uploadId={upload.id} />}
        </>
      )}
      result={(upload) => (
        <>
          <UploadCounts counts={upload.counts} stage="result" />
          <RejectedRowsTable upload={upload} />
          {upload.counts.rejected > 0 && <ErrorFile uploadId={upload.id} />}
        </>
      )}
      doneActions={
        <Button component={Link} to={paths.monitoringItems.getHref()} variant="contained">
          {t.toPortfolio}
        </Button>
      }
      moreActions={
        <Button component={Link} to={paths.monitoringUploadsHistory.getHref()}>
          {t.toHistory}
        </Button>
      }
    />
  );
}

function FileFacts({ upload }: { upload: UploadDetail }) {
  const facts = [
    formatBytes(upload.fileSize),
    upload.format?.toUpperCase(),
    upload.encoding ? t.encoding(upload.encoding) : null,
    upload.delimiter ? t.delimiter(upload.delimiter === '\t' ? t.tab : upload.delimiter) : null,
  ].filter(Boolean);
  return (
    <Typography variant="body2" color="text.secondary">
      {facts.join(' · ')}
    </Typography>
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
