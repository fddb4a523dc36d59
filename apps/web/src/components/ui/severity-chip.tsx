import Chip, { type ChipProps } from '@mui/material/Chip';
import { SEVERITIES, type Severity } from '@pledgewatch/contract';

const SEVERITY_COLORS: Record<Severity, ChipProps['color']> = {
  low: 'default',
  medium: 'info',
  high: 'warning',
  critical: 'error',
};

/** An event's or finding's importance, coloured the same on every screen. */
export function SeverityChip({ severity, size = 'small' }: { severity: Severity; size?: ChipProps['size'] }) {
  return (
    <Chip
      size={size}
      color={SEVERITY_COLORS[severity]}
      variant={severity === 'low' ? 'outlined' : 'filled'}
      label={SEVERITIES[severity].label}
      data-severity={severity}
    />
  );
}
