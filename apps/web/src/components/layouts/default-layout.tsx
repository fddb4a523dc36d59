import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { DRAWER_WIDTH } from '@/config/constants';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts';
import { useLogout, useUser } from '@/lib/auth';
import { AppNav } from './app-nav';
import type { NavBadges } from './nav-items';
import { PageTransition } from './page-transition';
import { ThemeToggle } from './theme-toggle';
import { UserBadge } from './user-badge';

/**
 * App bar + navigation drawer around every signed-in screen; `navBadges` decorate nav icons and
 * `search` is the header's search box (a feature, passed in by the app layer).
 */
export function DefaultLayout({ navBadges, search }: { navBadges?: NavBadges; search?: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const user = useUser();
  const navigate = useNavigate();
  const logout = useLogout({ onDone: () => navigate(paths.auth.getHref(), { replace: true }) });

  const drawerContent = (
    <>
      <Toolbar />
      <Box sx={{ overflowY: 'auto', py: 1 }}>
        <AppNav onNavigate={() => setMobileOpen(false)} badges={navBadges} />
      </Box>
    </>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: 1 }}>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={texts.nav.openMenu}
            onClick={() => setMobileOpen((open) => !open)}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Typography
            variant="h6"
            component={Link}
            to={paths.home.getHref()}
            sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}
          >
            {texts.app.name}
          </Typography>
          {search}
          {user && <UserBadge user={user} />}
          <ThemeToggle />
          <Button
            color="inherit"
            startIcon={<LogoutIcon />}
            onClick={() => logout.mutate()}
            disabled={logout.isPending}
          >
            {texts.layout.signOut}
          </Button>
        </Toolbar>
      </AppBar>

      <Box component="aside" sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          {drawerContent}
        </Drawer>
        <Drawer
          variant="permanent"
          open
          sx={{ display: { xs: 'none', md: 'block' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          {drawerContent}
        </Drawer>
      </Box>

      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, bgcolor: 'background.default' }}>
        <Toolbar />
        <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1600, mx: 'auto' }}>
          <PageTransition>
            <Outlet />
          </PageTransition>
        </Box>
      </Box>
    </Box>
  );
}
