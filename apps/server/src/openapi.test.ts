import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  allEndpoints,
  apiKeyEndpoints,
  type EndpointDefinition,
  IDEMPOTENT_ENDPOINTS,
} from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './testing/test-app.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const { app } = await buildTestApp();
const scratch = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-openapi-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

type Operation = {
  operationId?: string;
  security?: unknown[];
  requestBody?: {
    content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
};
type Document = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};
const served = async () => (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<Document>();

describe('the served OpenAPI document (/api/docs/json)', () => {
  it('gives every operation a unique operationId from the contract', async () => {
    const doc = await served();
    const operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ route, method, id: op.operationId })),
    );
    expect(operations.length).toBe(allEndpoints().length);
    expect(operations.filter((op) => !op.id)).toEqual([]);
    const ids = operations.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('monitoringItems');
  });

  it('has no path ending in a slash, while the old slash paths keep answering', async () => {
    const doc = await served();
    expect(Object.keys(doc.paths).filter((route) => route.endsWith('/'))).toEqual([]);
    const withSlash = await app.inject({ method: 'GET', url: '/api/v1/monitoring/uploads/' });
    expect(withSlash.statusCode).toBe(401);
  });

  it('names this instance in servers and describes both ways to sign in', async () => {
    const doc = await served();
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://pledgewatch.test' })]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearerAuth', 'cookieAuth']);
  });

  it('shows a request example for each main write, one the server itself accepts', async () => {
    const doc = await served();
    // The creating POSTs an integration makes (those that take a JSON body) and the key it starts with.
    const writes = [...IDEMPOTENT_ENDPOINTS, apiKeyEndpoints.create as EndpointDefinition].filter(
      (endpoint) => endpoint.body && (endpoint.bodyType ?? 'json') === 'json',
    );
    expect(writes.length).toBeGreaterThanOrEqual(7);
    const examples = writes.map((endpoint) => {
      const route = endpoint.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      const media =
        doc.paths[route]?.[endpoint.method.toLowerCase()]?.requestBody?.content['application/json'];
      const values = [
        ...(media?.example === undefined ? [] : [media.example]),
        ...Object.values(media?.examples ?? {}).map((example) => example.value),
      ];
      return { endpoint: `${endpoint.method} ${endpoint.path}`, values, schema: endpoint.body! };
    });
    expect(examples.filter((entry) => entry.values.length === 0).map((entry) => entry.endpoint)).toEqual([]);
    const refused = examples.flatMap(({ endpoint, values, schema }) =>
      values.flatMap((value) => {
        const result = schema.safeParse(value);
        return result.success ? [] : [`${endpoint}: ${result.error.message}`];
      }),
    );
    expect(refused).toEqual([]);
  });

  it('passes Redocly’s recommended lint with no error', async () => {
    const file = path.join(scratch, 'openapi.json');
    await writeFile(file, JSON.stringify(await served()));
    const result = await run(
      path.join(repoRoot, 'node_modules/.bin/redocly'),
      ['lint', file, '--extends', 'recommended', '--format', 'json'],
      {
        cwd: scratch,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(result.stdout) as {
      problems: { severity: string; ruleId: string; message: string }[];
    };
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  }, 120_000);
});
