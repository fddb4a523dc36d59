import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { texts } from '@/config/texts-signed-out';

/** Title and one line of explanation at the top of an auth card. */
export function AuthCardHeader({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <Box sx={{ mb: 3 }}>
      <title>{`${title}${texts.app.titleSuffix}`}</title>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {subtitle && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {subtitle}
        </Typography>
      )}
    </Box>
  );
}
