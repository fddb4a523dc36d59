/** The audit module's public entry: what other modules use to record and describe changes. */

export { recordAudit } from './audit.queries.ts';
export { auditRoutes } from './audit.routes.ts';
export { changedFields } from './audit-changes.ts';
