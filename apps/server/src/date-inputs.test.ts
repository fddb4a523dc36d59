import { allEndpoints, type EndpointDefinition, endpointPath } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer, buildTestApp, createSignedInUser } from './testing/test-app.ts';

/**
 * Finding 3 of issue #27, as a class: every date and date-time a client can send (query, path, body of
 * every endpoint in the contract) answers an impossible calendar date with 422 and a Russian message.
 * The fields are found from the schemas themselves: those carrying the shared date formats
 * (`calendarDateSchema`, `dateTimeSchema`) and any field whose name says it is a date, so a date added
 * later with a plain string schema is caught here too.
 */

type DateField = { path: (string | number)[]; kind: 'date' | 'date-time'; fill: Map<string, unknown> };

const DATE_NAME = /^(from|to)$|date|birth|At$/i;
/** Fields named like a date that are not one. */
const NOT_DATES = new Set(['GET /api/v1/platform/outbox query to']);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function formatOf(schema: z.ZodType): string | undefined {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { format?: string };
  return json.format;
}

/** The date fields of a schema; `fill` holds the discriminators (`type: 'individual'`) on the way to each. */
function dateFields(
  schema: z.ZodType,
  path: (string | number)[],
  fill: Map<string, unknown>,
  out: DateField[],
) {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const childPath = [...path, key];
        const format = formatOf(child);
        if (format === 'date' || format === 'date-time') {
          out.push({ path: childPath, kind: format, fill });
        } else if (DATE_NAME.test(key) && isStringLeaf(child)) {
          out.push({ path: childPath, kind: 'date', fill });
        } else {
          dateFields(child, childPath, fill, out);
        }
      }
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return dateFields(def.innerType as z.ZodType, path, fill, out);
    case 'pipe':
      return dateFields(def.in as z.ZodType, path, fill, out);
    case 'array':
      return dateFields(def.element as z.ZodType, [...path, 0], fill, out);
    case 'intersection':
      dateFields(def.left as z.ZodType, path, fill, out);
      return dateFields(def.right as z.ZodType, path, fill, out);
    case 'union':
      for (const option of def.options ?? []) {
        dateFields(option, path, withLiterals(option, path, fill), out);
      }
      return;
    default:
      return;
  }
}

function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.innerType) {
    return unwrap(def.innerType);
  }
  return def.type === 'pipe' ? unwrap(def.in as z.ZodType) : schema;
}

const isStringLeaf = (schema: z.ZodType) => defOf(unwrap(schema)).type === 'string';

function withLiterals(option: z.ZodType, path: (string | number)[], fill: Map<string, unknown>) {
  const next = new Map(fill);
  const def = defOf(unwrap(option));
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const childDef = defOf(unwrap(child));
    if (childDef.type === 'literal') {
      next.set(JSON.stringify([...path, key]), childDef.values?.[0]);
    }
  }
  return next;
}

function setPath(target: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let node: Record<string | number, unknown> = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    node[key] ??= typeof path[index + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
}

/** Path parameters that pass their own schema, so the request reaches the date. */
function paramsFor(endpoint: EndpointDefinition): Record<string, string> {
  const shape = endpoint.params ? (defOf(unwrap(endpoint.params)).shape ?? {}) : {};
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const def = defOf(unwrap(schema));
      const value =
        def.type === 'enum'
          ? String(Object.values(def.entries ?? {})[0])
          : '00000000-0000-4000-8000-000000000000';
      return [name, value];
    }),
  );
}

const IMPOSSIBLE: Record<DateField['kind'], string[]> = {
  date: ['2026-02-30', '2025-13-01', '2025-02-29', '2026-04-31'],
  'date-time': ['2026-02-30T10:00:00Z', '2025-13-01T00:00:00+03:00', '2026-03-01T25:00:00Z'],
};

const cases = allEndpoints().flatMap((endpoint) =>
  (['params', 'query', 'body'] as const).flatMap((part) => {
    const schema = endpoint[part];
    if (!schema || (part === 'body' && endpoint.bodyType === 'multipart')) {
      return [];
    }
    const found: DateField[] = [];
    dateFields(schema, [], new Map(), found);
    return found
      .filter(
        (field) => !NOT_DATES.has(`${endpoint.method} ${endpoint.path} ${part} ${field.path.join('.')}`),
      )
      .flatMap((field) => IMPOSSIBLE[field.kind].map((value) => ({ endpoint, part, field, value })));
  }),
);

const { app } = await buildTestApp();
const admin = await createSignedInUser(app, { role: 'admin', isStaff: true });

describe('impossible dates in every endpoint of the contract', () => {
  it('finds the date fields of the API', () => {
    const names = new Set(
      cases.map((c) => `${c.endpoint.method} ${c.endpoint.path} ${c.part} ${c.field.path.join('.')}`),
    );
    for (const expected of [
      'GET /api/v1/pledges/events query from',
      'GET /api/v1/pledges/events query to',
      'GET /api/v1/monitoring/events/items query from',
      'GET /api/v1/audit query to',
      'GET /api/v1/monitoring/report query from',
      'POST /api/v1/monitoring/statistics/data body to',
      'POST /api/v1/pledges/events body notificationDate',
      'POST /api/v1/pledges/events body pledgor.birthDate',
      'PUT /api/v1/pledges/events/:id body contract.endDate',
    ]) {
      expect(names, expected).toContain(expected);
    }
  });

  it.each(
    cases.map(
      (c) =>
        [
          `${c.endpoint.method} ${c.endpoint.path} ${c.part}.${c.field.path.join('.')}=${c.value}`,
          c,
        ] as const,
    ),
  )('%s answers 422 in Russian', async (_name, { endpoint, part, field, value }) => {
    const params = paramsFor(endpoint);
    const request: Record<string, unknown> = {};
    for (const [key, literal] of field.fill) {
      setPath(request, JSON.parse(key) as (string | number)[], literal);
    }
    setPath(request, field.path, value);
    if (part === 'params') {
      Object.assign(params, request);
    }
    const response = await app.inject({
      method: endpoint.method,
      url: endpointPath(endpoint.path, params),
      headers: bearer(admin.token),
      ...(part === 'query' ? { query: request as Record<string, string> } : {}),
      ...(part === 'body' ? { payload: request } : {}),
    });
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json<{ message: string; fieldErrors?: { field: string; message: string }[] }>();
    expect(body.message).toMatch(/[а-яё]/i);
    const fieldError = body.fieldErrors?.find((error) => error.field === field.path.join('.'));
    expect(fieldError, response.body).toBeDefined();
    expect(fieldError?.message).toMatch(/^[^a-z]*[а-яё]/i);
  });
});
