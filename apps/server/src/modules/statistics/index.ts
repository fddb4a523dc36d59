/** The statistics module's public entry: the Moscow-day helpers reports share. */
export { moscowMidnight, nextDay } from './statistics.service.ts';
