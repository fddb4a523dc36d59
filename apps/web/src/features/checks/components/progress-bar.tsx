import Box from '@mui/material/Box';
import LinearProgress, { type LinearProgressProps } from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

type ProgressBarProps = {
  done: number;
  total: number;
  label: string;
  color?: LinearProgressProps['color'];
  /** Still being planned: the total is not known yet. */
  indeterminate?: boolean;
};

/** A bar with «done из total» beside it; an empty total of a finished job reads as complete. */
export function ProgressBar({
  done,
  total,
  label,
  color = 'primary',
  indeterminate = false,
}: ProgressBarProps) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 160 }}>
      <LinearProgress
        variant={indeterminate ? 'indeterminate' : 'determinate'}
        value={indeterminate ? undefined : percent}
        color={color}
        aria-label={label}
        sx={{ flexGrow: 1, height: 8, borderRadius: 4 }}
      />
      <Typography variant="caption" sx={{ whiteSpace: 'nowrap', minWidth: 64, textAlign: 'right' }}>
        {label}
      </Typography>
    </Box>
  );
}
