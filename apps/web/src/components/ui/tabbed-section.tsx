import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link, Outlet, useLocation } from 'react-router';
import { usePreloadRoute } from '@/lib/route-preload';
import { Page } from './page';

type TabLink = { label: string; path: string };

/** A screen whose tabs are child routes (e.g. /monitoring/upload/form and /table). */
export function TabbedSection({ title, tabs }: { title: string; tabs: TabLink[] }) {
  const { pathname } = useLocation();
  const preload = usePreloadRoute();
  const current = tabs.find((tab) => pathname.startsWith(tab.path))?.path ?? false;

  return (
    <Page title={title}>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs value={current} variant="scrollable" allowScrollButtonsMobile>
          {tabs.map((tab) => (
            <Tab
              key={tab.path}
              label={tab.label}
              value={tab.path}
              component={Link}
              to={tab.path}
              onMouseEnter={() => preload(tab.path)}
            />
          ))}
        </Tabs>
      </Box>
      <Outlet />
    </Page>
  );
}
