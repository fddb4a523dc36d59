/** The monitoring module's public entry: the portfolio item rules (packages/contract/src/item-rules.ts) and writes other modules share. */
export { displayIdentifier, validateItemRow } from '@pledgewatch/contract/item-rules';
export { reserveImportRange, takeImportRange } from './items-created-order.queries.ts';
export { mergeSearchIndexes, upsertItems } from './monitoring.queries.ts';
export { monitoringRoutes } from './monitoring.routes.ts';
