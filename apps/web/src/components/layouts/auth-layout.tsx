import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Outlet } from 'react-router';
import { texts } from '@/config/texts-signed-out';
import { PageTransition } from './page-transition';

/** Centered card for the screens used before sign-in. */
export function AuthLayout() {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Typography variant="h5" component="p" sx={{ fontWeight: 700, mb: 0.5 }} color="primary">
        {texts.app.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {texts.app.tagline}
      </Typography>
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
        <PageTransition>
          <Outlet />
        </PageTransition>
      </Paper>
    </Box>
  );
}
