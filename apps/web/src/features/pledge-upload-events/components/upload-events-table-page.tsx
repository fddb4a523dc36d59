import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { pledgeEndpoints, UPLOAD_MAX_BYTES_DEFAULT, type UploadDetail } from '@pledgewatch/contract';
import { Link } from 'react-router';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
import { FileDropZone } from '@/components/uploads/file-drop-zone';
import { UploadFileLinks } from '@/components/uploads/upload-file-links';
import { UploadFlow, type UploadFlowHooks, type UploadFlowTexts } from '@/components/uploads/upload-flow';
import { paths } from '@/config/paths';
import { texts } from '@/features/pledge-upload-events/texts';
import { endpointUrl } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { type UploadDecision, useDecidePledgeUpload } from '../api/decide-pledge-upload';
import { usePledgeUpload } from '../api/get-pledge-upload';
import { useUploadPledgeEvents } from '../api/upload-pledge-events';

const t = texts.pledgeUploadEvents.file;

/** Exported for the route test of the send step. */
export const flowTexts: UploadFlowTexts = {
  title: t.title,
  hint: t.hint,
  templateHint: t.templateHint,
  sending: t.sending,
  validating: t.validating,
  importing: t.importing,
  previewHint: t.previewHint,
  nothingToAdd: t.nothingToAdd,
  confirm: t.confirm,
  cancel: t.cancel,
  // Cancelling cannot be undone (the file must be sent again): it asks first.
  cancelDialog: { title: t.confirmCancelTitle, message: () => t.confirmCancel, confirmLabel: t.cancel },
  done: t.done,
  doneWithErrors: t.doneWithErrors,
  failed: t.failed,
  cancelled: t.cancelled,
  another: t.another,
};

/** Confirm and cancel are one call here (a decision); the flow wants one hook for each. */
const decisionHook =
  (decision: UploadDecision['decision']): UploadFlowHooks['useConfirm'] =>
  (callbacks) => {
    const decide = useDecidePledgeUpload(callbacks);
    return {
      mutate: (id, more) => decide.mutate({ id, decision }, more),
      isPending: decide.isPending,
    };
  };

const hooks: UploadFlowHooks = {
  useSend: useUploadPledgeEvents,
  useUpload: usePledgeUpload,
  useConfirm: decisionHook('confirm'),
  useCancel: decisionHook('cancel'),
};

/** The drop zone with this screen's check: only CSV and XLSX files go to the server. */
function takeFile(file: File, onFile: (file: File) => void, onError: (message: string) => void) {
  const extension = file.name.split('.').pop()?.toLowerCase();
  if (extension !== 'csv' && extension !== 'xlsx') {
    onError(t.wrongType(file.name));
  } else {
    onFile(file);
  }
}

/** A file of pledge notifications: send, check (progress), preview with errors, confirm, result. */
export default function UploadEventsTablePage() {
  return (
    <UploadFlow
      texts={flowTexts}
      hooks={hooks}
      viewerNotice={<Alert severity="info">{texts.pledgeUploadEvents.form.viewer}</Alert>}
      dropZone={({ onFile, onError }) => (
        <FileDropZone
          title={t.dropTitle}
          hint={`${t.dropHint} · CSV, XLSX · ${formatBytes(UPLOAD_MAX_BYTES_DEFAULT)}`}
          chooseLabel={t.choose}
          onFile={(file) => takeFile(file, onFile, onError)}
        />
      )}
      templateLinks={
        <UploadFileLinks
          href={(format) => endpointUrl(pledgeEndpoints.uploadTemplate, { query: { format } })}
          label={t.template}
        />
      }
      headerDetails={({ counts }) => (
        <Typography variant="body2" color="text.secondary" data-testid="upload-counts">
          {t.counts(counts.rows, counts.accepted, counts.duplicates, counts.rejected)}
        </Typography>
      )}
      preview={(upload) => (
        <>
          <PreviewTable upload={upload} />
          <ErrorsTable upload={upload} />
        </>
      )}
      result={(upload) => <ErrorsTable upload={upload} />}
      doneActions={
        <>
          <Button variant="contained" component={Link} to={paths.pledgesEventsRegistryTable.getHref()}>
            {t.toRegistry}
          </Button>
          <Button component={Link} to={paths.pledgesEventsRegistryPackages.getHref()}>
            {t.toPackages}
          </Button>
        </>
      }
    />
  );
}

/** The table's frame on desktops; cards on a phone have their own. */
const FRAME = { border: { sm: 1 }, borderColor: { sm: 'divider' }, borderRadius: 1 } as const;

/** A file's first rows as they will be entered: a card per row on a phone, headed by the event. */
const PREVIEW_COLUMNS: ResponsiveColumn<UploadDetail['preview'][number]>[] = [
  {
    id: 'row',
    header: t.row,
    card: 'secondary',
    cell: (row) => row.rowNumber,
    cardCell: (row) => `${t.row} ${row.rowNumber}`,
  },
  { id: 'event', header: t.event, card: 'title', cell: (row) => row.label },
  {
    id: 'vehicle',
    header: t.vehicle,
    cellSx: { fontFamily: 'monospace', whiteSpace: { sm: 'nowrap' } },
    cell: (row) => (
      <>
        {row.displayIdentifier}
        {row.warning && (
          <Typography variant="caption" color="warning.main" sx={{ display: 'block', fontFamily: 'inherit' }}>
            {row.warning}
          </Typography>
        )}
      </>
    ),
  },
  { id: 'contract', header: t.contract, cell: (row) => row.contractNumber },
  { id: 'pledgor', header: t.pledgor, cell: (row) => row.pledgorName },
];

/** Rows the file was refused on, each with its Russian reason. */
const ERROR_COLUMNS: ResponsiveColumn<UploadDetail['errors'][number]>[] = [
  {
    id: 'row',
    header: t.row,
    card: 'title',
    cell: (row) => row.rowNumber,
    cardCell: (row) => `${t.row} ${row.rowNumber}`,
  },
  {
    id: 'vehicle',
    header: t.vehicle,
    cellSx: { fontFamily: 'monospace' },
    cell: (row) => row.values.vin || texts.common.dash,
  },
  {
    id: 'reason',
    header: t.reason,
    cellSx: { color: 'error.main' },
    cell: (row) => (
      <Typography variant="body2" component="span" color="error">
        {row.message}
      </Typography>
    ),
  },
];

function PreviewTable({ upload }: { upload: UploadDetail }) {
  if (upload.preview.length === 0) {
    return null;
  }
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3">
        {t.preview}
      </Typography>
      <Box sx={FRAME}>
        <ResponsiveTable
          rows={upload.preview}
          columns={PREVIEW_COLUMNS}
          getRowId={(row) => String(row.rowNumber)}
          ariaLabel={t.preview}
        />
      </Box>
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
      <Box sx={FRAME}>
        <ResponsiveTable
          rows={upload.errors}
          columns={ERROR_COLUMNS}
          getRowId={(row) => `${row.rowNumber}-${row.field}`}
          ariaLabel={t.rejected}
        />
      </Box>
      <UploadFileLinks uploadId={upload.id} label={t.errorFile} />
    </Stack>
  );
}
