/** The checks module's public entry: what the dashboard reads about runs. */
export { listRunFailedSources } from './runs/run-failures.queries.ts';
