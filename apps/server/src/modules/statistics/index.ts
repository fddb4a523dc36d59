/** The statistics module's public entry: the day arithmetic reports share. */
export { nextDay } from './statistics.service.ts';
