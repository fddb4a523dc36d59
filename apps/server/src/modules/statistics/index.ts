/** The statistics module's public entry: the day arithmetic reports share, the label dictionary fill. */
export { fillLabelDictionary } from './statistics.queries.ts';
export { statisticsRoutes } from './statistics.routes.ts';
export { nextDay } from './statistics.service.ts';
