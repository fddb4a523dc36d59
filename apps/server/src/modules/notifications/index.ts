/** The notifications module's public entry: telling the organisation's rules about new events and about the sources' health. */
export { notifyEvents } from './notifications.service.ts';
export { notifySourceHealth, type SourceHealth } from './source-alerts.service.ts';
