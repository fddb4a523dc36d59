/** The monitoring module's public entry: the portfolio item rules and writes other modules share. */
export { displayIdentifier, validateItemRow } from './item-rules.ts';
export { reserveImportRange, takeImportRange } from './items-created-order.queries.ts';
export { mergeSearchIndexes, upsertItems } from './monitoring.queries.ts';
export { monitoringRoutes } from './monitoring.routes.ts';
