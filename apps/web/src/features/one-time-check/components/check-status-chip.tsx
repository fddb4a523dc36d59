import Chip, { type ChipProps } from '@mui/material/Chip';
import { ONE_TIME_CHECK_STATUS_LABELS, type OneTimeCheck } from '@pledgewatch/contract';

const COLORS: Record<OneTimeCheck['status'], ChipProps['color']> = {
  completed: 'success',
  partial: 'warning',
  failed: 'error',
};

export function CheckStatusChip({ status }: { status: OneTimeCheck['status'] }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[status]}
      label={ONE_TIME_CHECK_STATUS_LABELS[status]}
    />
  );
}
