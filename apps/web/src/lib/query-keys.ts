// Catalogue (not split by size): every TanStack Query key of the web app, one place for all features.
/**
 * The query-options factories in `features/<f>/api/*` build their keys here, and every
 * `invalidateQueries`/`setQueryData` names a key from here (`queryKeys.x.all`, `.list(query)`),
 * never a literal array: a feature that refreshes another feature's data (an upload adds
 * monitoring items, a pledge decision changes the registry) goes through this catalogue rather than
 * the other feature's files. `scripts/check-web-boundaries.ts` (run by `npm run lint`) fails on a
 * literal key array in `features/`.
 */
export const queryKeys = {
  auth: {
    me: ['auth', 'me'] as const,
  },
  verifyEmail: {
    all: ['verify-email'] as const,
    token: (token: string) => ['verify-email', token] as const,
  },
  profile: {
    one: ['user', 'profile'] as const,
  },
  apiKeys: {
    all: ['api-keys'] as const,
  },
  users: {
    all: ['users'] as const,
    list: <Q>(query: Q) => ['users', query] as const,
  },
  auditLog: {
    entries: <Q>(query: Q) => ['audit-log', 'entries', query] as const,
    facets: ['audit-log', 'facets'] as const,
  },
  outbox: {
    list: <Q>(query: Q) => ['outbox', query] as const,
  },
  checks: {
    sources: ['sources'] as const,
    schedule: ['check-schedule'] as const,
    runs: ['check-runs'] as const,
    runList: <Q>(query: Q) => ['check-runs', 'list', query] as const,
    run: (id: string) => ['check-runs', 'one', id] as const,
  },
  notifications: {
    all: ['notifications'] as const,
    rules: ['notifications', 'rules'] as const,
    deliveries: ['notifications', 'deliveries'] as const,
    deliveryList: <Q>(query: Q) => ['notifications', 'deliveries', query] as const,
    additionalMethods: ['notifications', 'methods-additional'] as const,
  },
  savedViews: {
    all: ['saved-views'] as const,
    list: (list: string) => ['saved-views', list] as const,
  },
  search: {
    results: <Q>(query: Q) => ['search', query] as const,
  },
  events: {
    all: ['events'] as const,
    list: <Q>(query: Q) => ['events', 'list', query] as const,
  },
  pledges: {
    all: ['pledges'] as const,
    event: (id: string) => ['pledges', 'event', id] as const,
    events: <Q>(query: Q) => ['pledges', 'events', query] as const,
    packages: <Q>(query: Q) => ['pledges', 'packages', query] as const,
    package: (id: string) => ['pledges', 'package', id] as const,
  },
  news: {
    all: ['news'] as const,
    lists: ['news', 'list'] as const,
    list: <Q>(query: Q) => ['news', 'list', query] as const,
    unreadCount: ['news', 'unread-count'] as const,
  },
  /** Monitoring uploads and pledge-event uploads share the `uploads` list and detail keys. */
  uploads: {
    all: ['uploads'] as const,
    lists: ['uploads', 'list'] as const,
    list: <Q>(query: Q) => ['uploads', 'list', query] as const,
    detail: (id: string) => ['uploads', 'detail', id] as const,
  },
  monitoringItems: {
    all: ['monitoring-items'] as const,
    list: <Q>(query: Q) => ['monitoring-items', 'list', query] as const,
    detail: (id: string) => ['monitoring-items', 'detail', id] as const,
    findings: (id: string) => ['monitoring-items', 'findings', id] as const,
    events: (itemId: string) => ['monitoring-items', 'events', itemId] as const,
  },
  oneTimeChecks: {
    lists: ['one-time-checks', 'list'] as const,
    list: <Q>(query: Q) => ['one-time-checks', 'list', query] as const,
    one: (id: string) => ['one-time-checks', 'one', id] as const,
    document: (id: string) => ['one-time-checks', 'document', id] as const,
  },
  statistics: {
    report: <Q>(body: Q) => ['statistics', body] as const,
  },
  dashboard: {
    one: ['dashboard'] as const,
  },
};
