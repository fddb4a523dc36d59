import { checkEndpoints, endpointPath } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { registry } from '../../../lib/metrics.ts';
import { moscowDate } from '../../../lib/moscow-time.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { importDataset } from '../sources/sources.service.ts';

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

  it("stores the asked sources' timings with the check, one row per asked source", async () => {
    const user = await createSignedInUser(app);
    const before = await app.db.query<{ id: string }>(
      'SELECT coalesce(max(id), 0) AS id FROM source_answers',
    );
    const created = (await check(user.token, 'XTA21099012345678')) as unknown as {
      sources: {
        type: string;
        status: string;
        error: string | null;
        durationMs: number;
        fromCache: boolean;
      }[];
    };
    const { rows } = await app.db.query<{
      source_type: string;
      mode: string;
      items: number;
      ok: boolean;
      error: string | null;
      duration_ms: number;
    }>(
      'SELECT source_type, mode, items, ok, error, duration_ms FROM source_answers WHERE id > $1 ORDER BY source_type',
      [before.rows[0]!.id],
    );
    const asked = created.sources.filter((source) => source.status !== 'skipped' && !source.fromCache);
    expect(asked.length).toBeGreaterThan(0);
    expect(rows).toEqual(
      asked
        .map((source) => ({
          source_type: source.type,
          mode: 'item',
          items: 1,
          ok: source.status === 'ok',
          error: source.error,
          duration_ms: source.durationMs,
        }))
        .toSorted((a, b) => a.source_type.localeCompare(b.source_type)),
    );
  });

  it("gives each dataset source its own import's records of the subject, in key order, from one lookup", async () => {
    const user = await createSignedInUser(app);
    const vin = 'XTA21099012345679';
    const record = (identifier: string, key: string) => ({
      documentType: '',
      identifier,
      key,
      payload: { record_id: key, status: 'active' },
    });
    await importDataset({
      db: app.db,
      type: 'wanted',
      fileName: 'wanted.csv',
      records: [record(vin, 'W-2'), record(vin, 'W-1'), record('XTA21099000000000', 'W-3')],
    });
    await importDataset({
      db: app.db,
      type: 'restrictions',
      fileName: 'r.csv',
      records: [record(vin, 'R-1')],
    });
    await importDataset({
      db: app.db,
      type: 'accidents',
      fileName: 'a.csv',
      records: [record('XTA21099000000000', 'A-1')],
    });
    const created = (await check(user.token, vin)) as unknown as {
      status: string;
      findingsCount: number;
      sources: { type: string; status: string; findings: { key: string }[]; error: string | null }[];
    };
    const byType = Object.fromEntries(created.sources.map((source) => [source.type, source]));
    expect(byType.wanted).toMatchObject({ status: 'ok', error: null });
    expect(byType.wanted!.findings.map((finding) => finding.key)).toEqual(['W-1', 'W-2']);
    expect(byType.restrictions!.findings.map((finding) => finding.key)).toEqual(['R-1']);
    expect(byType.accidents).toMatchObject({ status: 'ok', findings: [] });
    // A source whose dataset was never loaded says so; it is not «nothing found».
    expect(byType.registration).toMatchObject({ status: 'failed', findings: [] });
    expect(created.findingsCount).toBe(3);
  });
});

describe('the one-time checks list search', () => {
  it('matches «%» and «_» as themselves, not as LIKE wildcards', async () => {
    const user = await createSignedInUser(app);
    await check(user.token, 'XTA21099012345678');
    await check(user.token, 'Z94CB41AAER123456');
    const found = async (search: string) =>
      (
        await app.inject({
          url: `${checkEndpoints.oneTimeChecks.path}?search=${encodeURIComponent(search)}`,
          headers: bearer(user.token),
        })
      ).json<{ items: { identifier: string }[]; total: number }>();
    expect((await found('%')).total).toBe(0);
    expect((await found('_')).total).toBe(0);
    expect((await found('cb41')).items.map((item) => item.identifier)).toEqual(['Z94CB41AAER123456']);
  });
});

describe('the metrics of a one-time check', () => {
  /** Calls per source and provider so far (pledgewatch_source_request_duration_seconds' count). */
  const calls = async () => {
    const metric = registry.getSingleMetric('pledgewatch_source_request_duration_seconds')!;
    const values = (await metric.get()).values.filter((value) =>
      (value as { metricName?: string }).metricName?.endsWith('_count'),
    );
    return new Map(values.map((value) => [`${value.labels.source}/${value.labels.provider}`, value.value]));
  };

  it('counts every source it asks once — the pledges source and the passport list too', async () => {
    const user = await createSignedInUser(app);
    for (const payload of [
      { vin: 'XTA21099012345678' },
      { documentType: 'passport_rf', documentNumber: '4510 123456' },
    ]) {
      const before = await calls();
      const response = await app.inject({
        method: 'POST',
        url: checkEndpoints.oneTimeCheck.path,
        headers: bearer(user.token),
        payload,
      });
      expect(response.statusCode, response.body).toBe(200);
      const asked = response
        .json<{ sources: { type: string; status: string }[] }>()
        .sources.filter((source) => source.status !== 'skipped')
        .map((source) => source.type);
      expect(asked.length).toBeGreaterThan(0);
      const after = await calls();
      const moved = Object.fromEntries(
        [...after].map(([key, value]) => [key, value - (before.get(key) ?? 0)]).filter(([, n]) => n !== 0),
      );
      expect(moved).toEqual(Object.fromEntries(asked.map((type) => [`${type}/dataset`, 1])));
    }
  });
});
