/** The notifications module's public entry: telling the organisation's rules about new events. */
export { notifyEvents } from './notifications.service.ts';
