import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type TableToolbarProps = {
  title: string;
  hint?: string;
  /** From this width up the title and the actions sit in one row; below it they stack. */
  rowFrom?: 'sm' | 'md';
  /** Filters and buttons, on the right. */
  children?: ReactNode;
};

/** The heading row of a table panel: its title (an h2) with an optional hint, and its actions. */
export function TableToolbar({ title, hint, rowFrom = 'sm', children }: TableToolbarProps) {
  const heading = (
    <Typography variant="h6" component="h2">
      {title}
    </Typography>
  );
  return (
    <Stack
      direction={{ xs: 'column', [rowFrom]: 'row' }}
      spacing={2}
      sx={{ p: 2, alignItems: { [rowFrom]: 'center' }, justifyContent: 'space-between' }}
    >
      {hint ? (
        <div>
          {heading}
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        </div>
      ) : (
        heading
      )}
      {children}
    </Stack>
  );
}
