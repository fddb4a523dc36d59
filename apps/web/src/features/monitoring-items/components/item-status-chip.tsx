import Chip from '@mui/material/Chip';
import { ITEM_STATUS_LABELS, type ItemStatus } from '@pledgewatch/contract';

const COLORS: Record<ItemStatus, 'success' | 'warning' | 'default'> = {
  active: 'success',
  paused: 'warning',
  archived: 'default',
};

export function ItemStatusChip({ status }: { status: ItemStatus }) {
  return <Chip size="small" variant="outlined" color={COLORS[status]} label={ITEM_STATUS_LABELS[status]} />;
}
