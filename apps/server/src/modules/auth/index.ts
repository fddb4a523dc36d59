/** The auth module's public entry: sessions and the attempt throttle the account pages share. */
export { deleteSession, deleteUserSessions, listUserSessions } from './auth.queries.ts';
export { authRoutes } from './auth.routes.ts';
export { authenticateToken, throttleAttempt } from './auth.service.ts';
export { pruneAuthAttemptsJob } from './jobs/prune-attempts.job.ts';
export { throttleAddress } from './rate-limit.ts';
