/**
 * The web app's route table (seed spec, section 2). The web router is built from it and the
 * server uses it to answer unknown paths with status 404 while still serving the app shell.
 */
export type LayoutName = 'auth' | 'default';

export const ROUTES = {
  auth: { path: '/auth', layout: 'auth' },
  authVerifyEmail: { path: '/auth/verify-email', layout: 'default' },
  news: { path: '/news', layout: 'default' },
  home: { path: '/', layout: 'default' },
  settings: { path: '/settings', layout: 'default' },
  verifyEmail: { path: '/verify-email', layout: 'default' },
  resetPassword: { path: '/reset-password', layout: 'auth' },
  monitoringItems: { path: '/monitoring/items', layout: 'default' },
  monitoringReport: { path: '/monitoring/report', layout: 'default' },
  monitoringUpload: { path: '/monitoring/upload', layout: 'default' },
  monitoringUploadForm: { path: '/monitoring/upload/form', layout: 'default' },
  monitoringUploadTable: { path: '/monitoring/upload/table', layout: 'default' },
  monitoringStatistics: { path: '/monitoring/statistics', layout: 'default' },
  pledgesUploadEvents: { path: '/pledges/upload-events', layout: 'default' },
  pledgesUploadEventsForm: { path: '/pledges/upload-events/form', layout: 'default' },
  pledgesUploadEventsTable: { path: '/pledges/upload-events/table', layout: 'default' },
  pledgesEventsRegistry: { path: '/pledges/events-registry', layout: 'default' },
  pledgesEventsRegistryTable: { path: '/pledges/events-registry/table', layout: 'default' },
  pledgesEventsRegistryPackages: { path: '/pledges/events-registry/packages', layout: 'default' },
  monitoringNotifications: { path: '/monitoring/notifications', layout: 'default' },
  monitoringUploadsHistory: { path: '/monitoring/uploads-history', layout: 'default' },
  oneTimeCheck: { path: '/monitoring/one-time-check', layout: 'default' },
  oneTimeCheckTable: { path: '/monitoring/one-time-check/table', layout: 'default' },
  oneTimeCheckResults: { path: '/monitoring/one-time-check/results', layout: 'default' },
  oneTimeCheckDocument: { path: '/monitoring/one-time-check/document/:id', layout: 'default' },
  monitoringEvents: { path: '/monitoring/events', layout: 'default' },
  monitoringChecks: { path: '/monitoring/checks', layout: 'default' },
} as const satisfies Record<string, { path: string; layout: LayoutName }>;

export type RouteName = keyof typeof ROUTES;

const routeMatchers = Object.values(ROUTES).map(({ path }) => {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
});

/** True when a browser path (without query) is one of the app's screens. */
export function isKnownWebPath(pathname: string): boolean {
  return routeMatchers.some((matcher) => matcher.test(pathname));
}

/** Replaces `:param` segments of a route path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}
