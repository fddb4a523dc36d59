import { checkEndpoints, endpointPath } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { moscowDate } from '../../../lib/moscow-time.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';

const { app } = await buildTestApp();
const year = moscowDate(new Date()).slice(0, 4);

const check = async (token: string, vin: string) => {
  const response = await app.inject({
    method: 'POST',
    url: checkEndpoints.oneTimeCheck.path,
    headers: bearer(token),
    payload: { vin },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; number: string; createdBy: { fullName: string } };
};

describe('one-time check numbering (one statement under the counter lock)', () => {
  it('gives concurrent checks of an organisation consecutive numbers, each answer as stored', async () => {
    const user = await createSignedInUser(app);
    const checks = await Promise.all(Array.from({ length: 8 }, () => check(user.token, 'XTA21099012345678')));
    expect(checks.map((c) => c.number).toSorted()).toEqual(
      Array.from({ length: 8 }, (_, i) => `ПР-${year}-${String(i + 1).padStart(6, '0')}`),
    );
    for (const created of checks) {
      const stored = await app.inject({
        method: 'GET',
        url: endpointPath(checkEndpoints.oneTimeCheckById.path, { id: created.id }),
        headers: bearer(user.token),
      });
      expect(stored.json()).toEqual(created);
      expect(created.createdBy.fullName).toBe('Тестовый Пользователь');
    }
    // Another organisation counts from one.
    const other = await createSignedInUser(app);
    expect((await check(other.token, 'XTA21099012345678')).number).toBe(`ПР-${year}-000001`);
  });

  it('pads the counter to six digits and never cuts a longer one', async () => {
    const user = await createSignedInUser(app);
    await app.db.query(
      'INSERT INTO one_time_check_counters (organisation_id, year, last_value) VALUES ($1, $2, 999999)',
      [user.organisationId, Number(year)],
    );
    expect((await check(user.token, 'XTA21099012345678')).number).toBe(`ПР-${year}-1000000`);
  });
});
