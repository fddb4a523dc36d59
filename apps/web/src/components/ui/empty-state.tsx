import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type EmptyStateProps = { title?: string; description: string; icon?: ReactNode; action?: ReactNode };

export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return (
    <Paper
      variant="outlined"
      sx={{
        p: { xs: 3, md: 6 },
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
        color: 'text.secondary',
      }}
    >
      {icon ?? <InboxOutlinedIcon sx={{ fontSize: 48, opacity: 0.6 }} />}
      {title && (
        <Typography variant="h6" component="p" color="text.primary">
          {title}
        </Typography>
      )}
      <Typography sx={{ maxWidth: 560 }}>{description}</Typography>
      {action}
    </Paper>
  );
}
