import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { Link, useLocation } from 'react-router';
import { texts } from '@/config/texts';
import { usePreloadRoute } from '@/lib/route-preload';
import { activeNavHref, NAV_GROUPS, type NavBadges, type NavItem } from './nav-items';

function NavIcon({ item, badges }: { item: NavItem; badges?: NavBadges }) {
  const Badge = badges?.[item.href];
  return Badge ? <Badge>{item.icon}</Badge> : item.icon;
}

/** The drawer's list of every section; hovering an entry preloads its page. */
export function AppNav({ onNavigate, badges }: { onNavigate?: () => void; badges?: NavBadges }) {
  const { pathname } = useLocation();
  const preload = usePreloadRoute();
  const active = activeNavHref(pathname);

  return (
    <nav aria-label={texts.nav.label}>
      {NAV_GROUPS.map((group, index) => (
        <List
          key={group.title ?? `group-${index}`}
          dense
          subheader={
            group.title ? (
              <ListSubheader
                component="div"
                disableSticky
                sx={{ bgcolor: 'transparent', lineHeight: '36px' }}
              >
                {group.title}
              </ListSubheader>
            ) : undefined
          }
        >
          {group.items.map((item) => (
            <ListItemButton
              key={item.href}
              component={Link}
              to={item.href}
              selected={active === item.href}
              aria-current={active === item.href ? 'page' : undefined}
              onMouseEnter={() => preload(item.href)}
              onFocus={() => preload(item.href)}
              onClick={onNavigate}
              sx={{ pl: item.nested ? 5 : 2, borderRadius: 1, mx: 1 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <NavIcon item={item} badges={badges} />
              </ListItemIcon>
              <ListItemText primary={item.label} />
            </ListItemButton>
          ))}
        </List>
      ))}
    </nav>
  );
}
