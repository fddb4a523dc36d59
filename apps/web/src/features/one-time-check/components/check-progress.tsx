import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import { texts } from '@/features/one-time-check/texts';

const t = texts.oneTimeCheck;

/**
 * The check is one request that answers when every source has: the API reports no progress per
 * source, so each source shows as being asked until the answer arrives.
 */
export function CheckProgress({ identifier, sources }: { identifier: string; sources: SourceType[] }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, md: 3 } }}
      role="status"
      aria-live="polite"
      data-testid="check-progress"
    >
      <Typography variant="h6" component="h2">
        {t.progress.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, wordBreak: 'break-all' }}>
        {t.progress.subtitle(identifier)}
      </Typography>
      <LinearProgress />
      <List dense>
        {sources.map((type) => (
          <ListItem key={type} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <CircularProgress size={18} aria-label={t.progress.asking} />
            </ListItemIcon>
            <ListItemText primary={SOURCE_TYPES[type].name} secondary={SOURCE_TYPES[type].description} />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
