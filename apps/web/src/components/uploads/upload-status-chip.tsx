import Chip from '@mui/material/Chip';
import { UPLOAD_STATUS_LABELS, type UploadStatus } from '@pledgewatch/contract';

const COLORS: Record<UploadStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  received: 'info',
  needs_mapping: 'warning',
  validating: 'info',
  validated: 'warning',
  importing: 'info',
  done: 'success',
  done_with_errors: 'warning',
  failed: 'error',
  cancelled: 'default',
};

/** Shared by the upload screen and the uploads history. */
export function UploadStatusChip({ status, label }: { status: UploadStatus; label?: string }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[status]}
      label={label ?? UPLOAD_STATUS_LABELS[status]}
      data-testid="upload-status"
      data-status={status}
    />
  );
}
