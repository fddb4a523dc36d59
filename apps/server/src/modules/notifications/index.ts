/** The notifications module's public entry: telling the organisation's rules about new events and about the sources' health. */

export { deliverNotificationJob } from './jobs/deliver-notification.job.ts';
export { notificationDigestsJob } from './jobs/notification-digests.job.ts';
export { notificationRoutes } from './notifications.routes.ts';
export { notifyEvents } from './notifications.service.ts';
export { notifySourceHealth, type SourceHealth } from './source-alerts.service.ts';
