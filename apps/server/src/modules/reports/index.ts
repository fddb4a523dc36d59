/** The reports module's public entry: streaming report files, shared by other modules' exports. */
export {
  type Cell,
  csvReport,
  type ReportColumn,
  type RowBatches,
  xlsxReport,
} from './report-files.ts';
export { streamRows } from './reports.queries.ts';
export { reportRoutes } from './reports.routes.ts';
