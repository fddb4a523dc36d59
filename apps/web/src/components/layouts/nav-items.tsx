import AssessmentOutlinedIcon from '@mui/icons-material/AssessmentOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import DirectionsCarOutlinedIcon from '@mui/icons-material/DirectionsCarOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import HomeOutlinedIcon from '@mui/icons-material/HomeOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import ListAltOutlinedIcon from '@mui/icons-material/ListAltOutlined';
import ManageSearchOutlinedIcon from '@mui/icons-material/ManageSearchOutlined';
import NewspaperOutlinedIcon from '@mui/icons-material/NewspaperOutlined';
import NotificationImportantOutlinedIcon from '@mui/icons-material/NotificationImportantOutlined';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import PlaylistPlayOutlinedIcon from '@mui/icons-material/PlaylistPlayOutlined';
import PostAddOutlinedIcon from '@mui/icons-material/PostAddOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import type { ComponentType, ReactNode } from 'react';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts';

export type NavItem = {
  label: string;
  href: string;
  icon: ReactNode;
  /** Nested under the previous item (e.g. the check history under the check). */
  nested?: boolean;
  /** Highlight only on an exact match, when a nested item owns the deeper paths. */
  exact?: boolean;
};

export type NavGroup = { title?: string; items: NavItem[] };

/**
 * Wrappers around nav icons, keyed by the item's href (e.g. the unread-news count on «Новости»).
 * The app layer passes them in, since the badges come from features.
 */
export type NavBadges = Partial<Record<string, ComponentType<{ children: ReactNode }>>>;

export const NAV_GROUPS: NavGroup[] = [
  {
    items: [
      { label: texts.nav.home, href: paths.home.getHref(), icon: <HomeOutlinedIcon />, exact: true },
      { label: texts.nav.news, href: paths.news.getHref(), icon: <NewspaperOutlinedIcon /> },
    ],
  },
  {
    title: texts.nav.monitoringSection,
    items: [
      { label: texts.nav.items, href: paths.monitoringItems.getHref(), icon: <DirectionsCarOutlinedIcon /> },
      {
        label: texts.nav.events,
        href: paths.monitoringEvents.getHref(),
        icon: <NotificationImportantOutlinedIcon />,
      },
      {
        label: texts.nav.checks,
        href: paths.monitoringChecks.getHref(),
        icon: <PlaylistPlayOutlinedIcon />,
      },
      { label: texts.nav.upload, href: paths.monitoringUpload.getHref(), icon: <CloudUploadOutlinedIcon /> },
      {
        label: texts.nav.uploadsHistory,
        href: paths.monitoringUploadsHistory.getHref(),
        icon: <HistoryOutlinedIcon />,
      },
      {
        label: texts.nav.notifications,
        href: paths.monitoringNotifications.getHref(),
        icon: <NotificationsOutlinedIcon />,
      },
      {
        label: texts.nav.statistics,
        href: paths.monitoringStatistics.getHref(),
        icon: <InsightsOutlinedIcon />,
      },
      { label: texts.nav.report, href: paths.monitoringReport.getHref(), icon: <AssessmentOutlinedIcon /> },
      {
        label: texts.nav.oneTimeCheck,
        href: paths.oneTimeCheck.getHref(),
        icon: <ManageSearchOutlinedIcon />,
      },
      {
        label: texts.nav.oneTimeCheckHistory,
        href: paths.oneTimeCheckTable.getHref(),
        icon: <FactCheckOutlinedIcon />,
        nested: true,
      },
    ],
  },
  {
    title: texts.nav.pledgesSection,
    items: [
      {
        label: texts.nav.pledgesUploadEvents,
        href: paths.pledgesUploadEvents.getHref(),
        icon: <PostAddOutlinedIcon />,
      },
      {
        label: texts.nav.pledgesEventsRegistry,
        href: paths.pledgesEventsRegistry.getHref(),
        icon: <ListAltOutlinedIcon />,
      },
    ],
  },
  {
    items: [{ label: texts.nav.settings, href: paths.settings.getHref(), icon: <SettingsOutlinedIcon /> }],
  },
];

export const NAV_HREFS: string[] = NAV_GROUPS.flatMap((group) => group.items.map((item) => item.href));

/** Which nav item owns a path: the longest matching href wins. */
export function activeNavHref(pathname: string): string | undefined {
  let best: NavItem | undefined;
  for (const item of NAV_GROUPS.flatMap((group) => group.items)) {
    const matches = item.exact
      ? pathname === item.href
      : pathname === item.href || pathname.startsWith(`${item.href}/`);
    if (matches && (!best || item.href.length > best.href.length)) {
      best = item;
    }
  }
  return best?.href;
}
