/**
 * One definition per API call: method, full path, request and response schemas, and what the
 * OpenAPI document says about it. The server registers its routes from these (apps/server
 * `lib/endpoint-route.ts`), the web calls them through `callEndpoint` (apps/web `lib/api-client.ts`).
 */
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type EndpointDefinition = {
  method: HttpMethod;
  /** The full path, Fastify style: `/api/v1/monitoring/items/:id`. */
  path: `/api/v1/${string}`;
  summary: string;
  tags: readonly string[];
  /** Path parameters (an object schema whose keys are the path's `:names`). */
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON (or form-encoded) body. A multipart endpoint has none: the web sends FormData. */
  body?: z.ZodType;
  /** The success answer; for files a `z.any()` that only documents them. */
  response: z.ZodType;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202;
  /** The error statuses this call answers with (all in the one error shape). */
  errors?: readonly number[];
  /** How the body travels: JSON (default), multipart/form-data (a file) or form-urlencoded (sign-in). */
  bodyType?: 'json' | 'multipart' | 'form';
  /** How the web reads the answer: JSON (default), a file (blob) or text. */
  responseType?: 'json' | 'blob' | 'text';
  /** Content types of a file answer, for the OpenAPI document. */
  produces?: readonly string[];
  /** Callable without a session (sign-in, password reset, the build id). */
  public?: boolean;
};

/** Keeps the literal types of a definition (method, path, schemas) for the request and response types. */
export const defineEndpoint = <const E extends EndpointDefinition>(endpoint: E): E => endpoint;

/** The `:name` parameters of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? '');
}

/** The path with its parameters filled in, each URI-encoded; a missing parameter is an error. */
export function endpointPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') {
      throw new Error(`Path parameter ${name} is missing for ${path}`);
    }
    return encodeURIComponent(String(value));
  });
}

type SchemaOf<E, K extends string> = E extends { [key in K]: infer S extends z.ZodType } ? S : never;

/** Keys the client may leave out: those whose input accepts undefined (optional, defaulted, coerced). */
type OptionalInputKeys<S extends z.ZodType> = {
  [K in keyof z.input<S>]-?: undefined extends z.input<S>[K] ? K : never;
}[keyof z.input<S>];

/**
 * A query as the client holds it: the parsed value types (numbers, booleans, lists: the client
 * writes them as strings, lists joined by commas) with the keys the server may do without optional.
 * Coerced fields' input types are `unknown`, too loose to type a client with.
 */
export type QueryInput<S extends z.ZodType> = {
  [K in Exclude<keyof z.output<S>, OptionalInputKeys<S>>]: z.output<S>[K];
} & {
  [K in Extract<keyof z.output<S>, OptionalInputKeys<S>>]?: z.output<S>[K] | undefined;
};

type ParamsPart<E> = [SchemaOf<E, 'params'>] extends [never]
  ? unknown
  : { params: z.input<SchemaOf<E, 'params'>> };
type QueryPart<E> = [SchemaOf<E, 'query'>] extends [never]
  ? unknown
  : Record<never, never> extends QueryInput<SchemaOf<E, 'query'>>
    ? { query?: QueryInput<SchemaOf<E, 'query'>> }
    : { query: QueryInput<SchemaOf<E, 'query'>> };
/** What the web's FormData and Blob look like to the contract, which knows no DOM. */
export type MultipartBody = { append(name: string, value: never, fileName?: string): void };
export type FileAnswer = { readonly size: number; readonly type: string };

type BodyPart<E> = E extends { bodyType: 'multipart' }
  ? { body: MultipartBody }
  : [SchemaOf<E, 'body'>] extends [never]
    ? unknown
    : { body: z.input<SchemaOf<E, 'body'>> };

/** What a caller sends: `params`, `query` and `body`, each present only when the endpoint has it. */
export type EndpointRequest<E extends EndpointDefinition> = ParamsPart<E> & QueryPart<E> & BodyPart<E>;

/** What a caller gets back: the parsed JSON, or a file (the web's Blob) / string for file and text answers. */
export type EndpointResponse<E extends EndpointDefinition> = E extends { responseType: 'blob' }
  ? FileAnswer
  : E extends { responseType: 'text' }
    ? string
    : z.output<E['response']>;

/** Shorthands for the parts, for helpers that take one of them. */
export type EndpointParams<E extends EndpointDefinition> = z.input<SchemaOf<E, 'params'>>;
export type EndpointQuery<E extends EndpointDefinition> = QueryInput<SchemaOf<E, 'query'>>;
export type EndpointBody<E extends EndpointDefinition> = z.input<SchemaOf<E, 'body'>>;

/** A query whose defaulted fields the caller always sets (a screen knows its page): `WithRequired<Q, 'page'>`. */
export type WithRequired<T, K extends keyof T> = T & Required<Pick<T, K>>;
