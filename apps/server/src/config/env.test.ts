import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy, loadConfig } from './env.ts';

describe('loadConfig', () => {
  it('applies defaults: embedded database, port 3000, workers on, demo data on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      appUrl: 'http://localhost:3000',
      runWorkers: true,
      demoData: true,
      sessionTtl: 604800,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('caps a source import by the MVD list (SOURCE_IMPORT_MAX_BYTES 4 GiB), not by an upload', () => {
    expect(loadConfig({}).sourceImportMaxBytes).toBe(4 * 1024 ** 3);
    expect(loadConfig({ SOURCE_IMPORT_MAX_BYTES: String(8 * 1024 ** 3) }).sourceImportMaxBytes).toBe(
      8 * 1024 ** 3,
    );
  });

  it('reads the sizes of the API pool and the job pool apart (DB_POOL_SIZE, JOBS_DB_POOL_SIZE)', () => {
    expect(loadConfig({})).toMatchObject({ dbPoolSize: 10, jobsDbPoolSize: 10 });
    expect(loadConfig({ DB_POOL_SIZE: '20', JOBS_DB_POOL_SIZE: '3' })).toMatchObject({
      dbPoolSize: 20,
      jobsDbPoolSize: 3,
    });
    expect(() => loadConfig({ JOBS_DB_POOL_SIZE: '0' })).toThrow(/JOBS_DB_POOL_SIZE/);
  });

  it('reads CHECK_BATCH_CONCURRENCY (unset: each process its own default) and APP_HEAVY_JOBS', () => {
    expect(loadConfig({}).checkBatchConcurrency).toBeUndefined();
    expect(loadConfig({ CHECK_BATCH_CONCURRENCY: '2' }).checkBatchConcurrency).toBe(2);
    expect(() => loadConfig({ CHECK_BATCH_CONCURRENCY: '0' })).toThrow(/CHECK_BATCH_CONCURRENCY/);
    expect(() => loadConfig({ CHECK_BATCH_CONCURRENCY: 'many' })).toThrow(/CHECK_BATCH_CONCURRENCY/);
    expect(loadConfig({}).appHeavyJobs).toBe(1);
    expect(loadConfig({ APP_HEAVY_JOBS: '3' }).appHeavyJobs).toBe(3);
    expect(() => loadConfig({ APP_HEAVY_JOBS: '0' })).toThrow(/APP_HEAVY_JOBS/);
  });

  it('reads METRICS_TOKEN (unset or empty: no metrics; short: refused) and METRICS_PORT', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16), METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: 'a'.repeat(16),
      metricsPort: 9464,
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('lists every invalid variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', WORKERS: 'maybe' })).toThrow(
      /Invalid configuration:\n {2}PORT: .+\n {2}DATABASE_URL: .+\n {2}WORKERS: .+/,
    );
  });

  it('trims a trailing slash from APP_URL so mail links are well formed', () => {
    expect(loadConfig({ APP_URL: 'https://pledgewatch.bank.ru/' }).appUrl).toBe(
      'https://pledgewatch.bank.ru',
    );
  });

  it('allows no private range by default and reads OUTBOUND_ALLOWED_RANGES as CIDRs', () => {
    expect(loadConfig({}).outboundAllowedRanges).toEqual([]);
    const ranges = loadConfig({
      OUTBOUND_ALLOWED_RANGES: '10.20.0.0/16, fd12:3456::/48',
    }).outboundAllowedRanges;
    expect(ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      '10.20.0.0/16',
      'fd12:3456::/48',
    ]);
  });

  it('stops at start on a bad OUTBOUND_ALLOWED_RANGES entry', () => {
    expect(() => loadConfig({ OUTBOUND_ALLOWED_RANGES: '10.0.0.0/8,intranet' })).toThrow(
      'Invalid configuration:\n  OUTBOUND_ALLOWED_RANGES: «intranet» is not a CIDR range such as 10.20.0.0/16 or fd12:3456::/48',
    );
  });

  it('trusts no proxy unless TRUST_PROXY says which', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual({
      addresses: ['10.0.0.1', '192.168.0.0/16', '::1', 'loopback'],
    });
  });

  it('stops at start on a TRUST_PROXY that is neither a hop count nor addresses', () => {
    for (const value of ['true', 'yes', '10.0.0.300', '10.0.0.0/33', '11', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/Invalid configuration:\n {2}TRUST_PROXY: /);
    }
  });

  it('maps TRUST_PROXY to Fastify: a hop count trusts exactly that many hops', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy({ addresses: ['10.0.0.1'] })).toEqual(['10.0.0.1']);
    const trust = fastifyTrustProxy({ hops: 1 }) as (address: string, hop: number) => boolean;
    expect([trust('10.0.0.1', 0), trust('10.0.0.2', 1)]).toEqual([true, false]);
  });
});
