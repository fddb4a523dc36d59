import { expect } from '@playwright/test';
import { apiCall, apiToken, DEMO_ANALYST } from './session.ts';
import { E2E_APP_URL } from './stack.ts';

type Run = { id: string; status: string };

/** The demo has no events until a regular check has run: run one (or wait for the one going). */
export async function ensureEvents(): Promise<void> {
  const token = await apiToken(DEMO_ANALYST);
  const events = await apiCall<{ total: number }>(token, 'GET', '/api/v1/monitoring/events/items?pageSize=1');
  if (events.total > 0) {
    return;
  }
  const started = await fetch(`${E2E_APP_URL}/api/v1/monitoring/check-runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect([200, 201, 202, 409]).toContain(started.status);
  await expect
    .poll(
      async () => {
        const runs = await apiCall<{ items: Run[] }>(
          token,
          'GET',
          '/api/v1/monitoring/check-runs?pageSize=1',
        );
        return runs.items[0]?.status;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toMatch(/^completed/);
}
