import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { performDelivery } from '../notifications.delivery.ts';

/** Tries after the first one; with back-off 10 s, 20 s, 40 s … up to 15 min between tries. */
export const DELIVERY_RETRY_LIMIT = 5;
export const DELIVERY_MAX_ATTEMPTS = DELIVERY_RETRY_LIMIT + 1;

export const deliverNotificationJob = defineJob({
  name: 'notifications.deliver',
  payload: z.object({ deliveryId: z.string().uuid() }),
  queue: {
    retryLimit: DELIVERY_RETRY_LIMIT,
    retryDelay: 10,
    retryBackoff: true,
    retryDelayMax: 900,
    expireInSeconds: 120,
  },
  // Delivery waits on remote servers, not on the CPU: several at once keep a first run's burst of
  // events (thousands of mails) from queueing behind one slow receiver.
  work: { localConcurrency: 8 },
  async handler(job, context) {
    await performDelivery({
      db: context.db,
      config: context.config,
      mailer: context.mailer,
      deliveryId: job.data.deliveryId,
      lastTry: job.retryCount >= job.retryLimit,
    });
  },
});
