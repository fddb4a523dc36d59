import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts-signed-out';

type ErrorPageProps = {
  status: number;
  title: string;
  message?: string;
  subtitle: string;
  showReload?: boolean;
};

/** Full-page error used for 404 and for anything a route failed with. */
export function ErrorPage({ status, title, message, subtitle, showReload }: ErrorPageProps) {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}
    >
      <title>{title}</title>
      <Paper sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, width: '100%', textAlign: 'center' }} elevation={2}>
        <Typography
          variant="h2"
          component="p"
          color="primary"
          sx={{ fontWeight: 700 }}
          data-testid="error-status"
        >
          {status}
        </Typography>
        <Typography variant="h5" component="h1" sx={{ mt: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {message && (
          <Typography sx={{ mt: 2, wordBreak: 'break-all' }} data-testid="error-message">
            {message}
          </Typography>
        )}
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {subtitle}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'center' }}>
          {/* A plain link: after an error the router state may be unusable, so start afresh. */}
          <Button variant="contained" href={paths.home.getHref()}>
            {texts.common.toHome}
          </Button>
          {showReload && (
            <Button variant="outlined" onClick={() => window.location.reload()}>
              {texts.errors.reload}
            </Button>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
