/** The checks module's public entry: what the dashboard reads about runs. */

export { checksRoutes } from './checks.routes.ts';
export { checkBatchJob } from './jobs/check-batch.job.ts';
export { dropSupersededListJob } from './jobs/drop-superseded-list.job.ts';
export { passportListFetchJob } from './jobs/passport-list-fetch.job.ts';
export { planCheckRunJob } from './jobs/plan-check-run.job.ts';
export { pledgeLapseJob } from './jobs/pledge-lapse.job.ts';
export { recheckItemsJob } from './jobs/recheck-items.job.ts';
export { scheduledChecksJob } from './jobs/scheduled-checks.job.ts';
export { sourceAlertsJob } from './jobs/source-alerts.job.ts';
export { sourceImportJob } from './jobs/source-import.job.ts';
export { listRunFailedSources } from './runs/run-failures.queries.ts';
