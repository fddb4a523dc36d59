import Chip, { type ChipProps } from '@mui/material/Chip';
import { CHECK_RUN_STATUS_LABELS, type CheckRun } from '@pledgewatch/contract';

const COLORS: Record<CheckRun['status'], ChipProps['color']> = {
  queued: 'default',
  running: 'info',
  completed: 'success',
  completed_with_errors: 'warning',
  failed: 'error',
};

export function CheckRunStatusChip({ status }: { status: CheckRun['status'] }) {
  return (
    <Chip size="small" color={COLORS[status]} label={CHECK_RUN_STATUS_LABELS[status]} data-status={status} />
  );
}
