import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { texts } from '@/config/texts';

type PageProps = { title: string; actions?: ReactNode; children?: ReactNode };

/** A screen inside the default layout: document title, one h1, optional actions. */
export function Page({ title, actions, children }: PageProps) {
  return (
    <Box>
      <title>{`${title}${texts.app.titleSuffix}`}</title>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 3, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h4" component="h1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
