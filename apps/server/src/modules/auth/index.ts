/** The auth module's public entry: sessions and the attempt throttle the account pages share. */
export { deleteSession, deleteUserSessions, listUserSessions } from './auth.queries.ts';
export { authenticateToken, throttleAttempt } from './auth.service.ts';
export { throttleAddress } from './rate-limit.ts';
