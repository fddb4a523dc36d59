import type { EndpointDefinition, EndpointRequest, EndpointResponse } from '@pledgewatch/contract/endpoint';
import { endpointPath } from '@pledgewatch/contract/endpoint';
import { getAuthHref, paths } from '@/config/paths';
import { texts } from '@/config/texts-signed-out';
import { markSessionEnded } from './auth-token';
import { parseErrorResponse } from './error-response';

export type FieldError = { field: string; message: string };

/** Any non-2xx answer (or no answer at all), carrying the server's Russian message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];

  constructor(status: number, code: string, message: string, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** A message fit for the screen, whatever was thrown. */
export function getErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    return error.message;
  }
  return texts.errors.unknown;
}

/**
 * The message followed by its field messages, for a screen that has no field to put them under
 * (a filter sent as a whole): «Проверьте правильность заполнения полей» alone does not say what to change.
 */
export function getErrorMessageWithFields(error: unknown): string {
  const fields = isApiError(error) ? error.fieldErrors.map((field) => field.message) : [];
  return [getErrorMessage(error), ...fields].join(' ');
}

type QueryValue = string | number | boolean | null | undefined;

type RequestOptions = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of JSON (only the login call). */
  form?: Record<string, string>;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'text';
};

type UnauthorizedHandler = (redirectTo: string) => void;

/** The router registers a client-side navigation here; a full page load is the fallback. */
let unauthorizedHandler: UnauthorizedHandler = (redirectTo) => {
  window.location.assign(getAuthHref(redirectTo));
};

export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) {
    return path;
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') {
      params.set(key, String(value));
    }
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readError(response: Response): Promise<ApiError> {
  const fallback = texts.errors.byStatus[response.status] ?? texts.errors.unknown;
  try {
    const parsed = parseErrorResponse(await response.json());
    if (parsed) {
      const { code, message, fieldErrors } = parsed;
      return new ApiError(response.status, code, message || fallback, fieldErrors ?? []);
    }
  } catch {
    // Not JSON (a proxy page, an empty body): fall back to a generic message for the status.
  }
  return new ApiError(response.status, `HTTP_${response.status}`, fallback);
}

function handleUnauthorized(): void {
  // The server's 401 answer has already cleared the HttpOnly cookie.
  markSessionEnded();
  const { pathname, search } = window.location;
  // A failed sign-in is a 401 too; the sign-in screen shows it instead of navigating to itself.
  if (pathname !== paths.auth.path) {
    unauthorizedHandler(`${pathname}${search}`);
  }
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  // No Authorization header: the HttpOnly session cookie goes along with every same-origin request.
  const headers = new Headers({ Accept: 'application/json' });
  let body: BodyInit | undefined;
  if (options.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(options.form).toString();
  } else {
    headers.set('Content-Type', 'application/json');
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
    } else if (method !== 'GET' && method !== 'HEAD') {
      // Every call is JSON; an empty body with a JSON content type is rejected by the server's parser.
      body = '{}';
    }
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') {
      throw error;
    }
    throw new ApiError(0, 'NETWORK_ERROR', texts.errors.network);
  }

  if (response.status === 401) {
    const error = await readError(response);
    handleUnauthorized();
    throw error;
  }
  if (!response.ok) {
    throw await readError(response);
  }
  if (options.responseType === 'blob') {
    return (await response.blob()) as T;
  }
  if (options.responseType === 'text') {
    return (await response.text()) as T;
  }
  if (response.status === 204) {
    return undefined as T;
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type UploadOptions = {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Bytes sent so far and the total, from the browser's upload progress events. */
  onProgress?: (loaded: number, total: number) => void;
};

/**
 * A multipart upload through XMLHttpRequest, the only browser API that reports upload progress.
 * Same session cookie, 401 handling and error shape as every other call.
 */
function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, options.query));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        options.onProgress?.(event.loaded, event.total);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', texts.errors.network));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    xhr.onload = () => {
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'application/json' },
      });
      if (xhr.status === 401) {
        void readError(response).then((error) => {
          handleUnauthorized();
          reject(error);
        });
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        void readError(response).then(reject);
        return;
      }
      try {
        resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
      } catch {
        reject(new ApiError(xhr.status, 'BAD_RESPONSE', texts.errors.unknown));
      }
    };
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('Upload aborted', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

/** The answer as the browser holds it: file answers are Blobs. */
export type EndpointResult<E extends EndpointDefinition> = E extends { responseType: 'blob' }
  ? Blob
  : EndpointResponse<E>;

/** The call's parts (`params`, `query`, `body`: as the endpoint has them) plus what the browser adds. */
export type EndpointCall<E extends EndpointDefinition> = EndpointRequest<E> & {
  signal?: AbortSignal;
  /** Multipart only: bytes sent so far and the total. */
  onProgress?: (loaded: number, total: number) => void;
};

type CallArgs<E extends EndpointDefinition> =
  Record<never, never> extends EndpointRequest<E> ? [call?: EndpointCall<E>] : [call: EndpointCall<E>];

type LooseCall = {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
  onProgress?: (loaded: number, total: number) => void;
};

/** A list in a query is sent as one comma-joined value, as the server's query schemas read it. */
function queryValues(query: Record<string, unknown> | undefined): Record<string, QueryValue> | undefined {
  if (!query) {
    return undefined;
  }
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join(',') : (value as QueryValue),
    ]),
  );
}

/** The endpoint's URL with its path parameters and query, e.g. for a plain download link. */
export function endpointUrl<E extends EndpointDefinition>(endpoint: E, ...[call]: CallArgs<E>): string {
  const loose = (call ?? {}) as LooseCall;
  return buildUrl(endpointPath(endpoint.path, loose.params), queryValues(loose.query));
}

/** Thrown in development when an answer does not match the endpoint's response schema. */
export class ContractMismatchError extends Error {
  constructor(endpoint: EndpointDefinition, issues: string) {
    super(`The answer of ${endpoint.method} ${endpoint.path} does not match the contract: ${issues}`);
    this.name = 'ContractMismatchError';
  }
}

/**
 * Development only: the answer must match the endpoint's response schema, so a server and client
 * drifting apart fail loudly on the developer's screen. Production trusts the server and skips it.
 */
export function checkAnswer(endpoint: EndpointDefinition, answer: unknown): void {
  if (endpoint.responseType === 'blob' || endpoint.responseType === 'text') {
    return;
  }
  const result = endpoint.response.safeParse(answer);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    const error = new ContractMismatchError(endpoint, issues);
    console.error(error.message, answer);
    throw error;
  }
}

const LOAD_DEFINITION = Symbol('load the endpoint definition');

/** The parts of a definition that route a call: method, path, and how body and answer travel. */
type RouteOf<E extends EndpointDefinition> = Pick<
  E,
  'method' | 'path' | Extract<keyof E, 'bodyType' | 'responseType'>
>;

/**
 * An endpoint for code that runs before sign-in, carried without its schemas so zod stays out of
 * the sign-in page's download (issue #15's budget). The types make `route` equal the definition's
 * method, path and body/answer kinds; in development `load` brings the full definition to check
 * the answer (pass it only under `import.meta.env.DEV`, so production builds drop it).
 */
export function endpointRoute<E extends EndpointDefinition>(route: RouteOf<E>, load?: () => Promise<E>): E {
  return { ...route, [LOAD_DEFINITION]: load } as unknown as E;
}

/**
 * Calls an endpoint of the contract: the path, query and body types, the method and the way the
 * body travels (JSON, form, multipart with progress) all come from its definition.
 */
export async function callEndpoint<E extends EndpointDefinition>(
  endpoint: E,
  ...[call]: CallArgs<E>
): Promise<EndpointResult<E>> {
  const loose = (call ?? {}) as LooseCall;
  const url = endpointPath(endpoint.path, loose.params);
  const query = queryValues(loose.query);
  let answer: unknown;
  if (endpoint.bodyType === 'multipart') {
    answer = await upload(url, loose.body as FormData, {
      query,
      signal: loose.signal,
      onProgress: loose.onProgress,
    });
  } else {
    answer = await request(endpoint.method, url, {
      query,
      signal: loose.signal,
      responseType: endpoint.responseType,
      ...(endpoint.bodyType === 'form'
        ? { form: loose.body as Record<string, string> }
        : { body: loose.body }),
    });
  }
  if (import.meta.env.DEV) {
    const load = (endpoint as { [LOAD_DEFINITION]?: () => Promise<EndpointDefinition> })[LOAD_DEFINITION];
    checkAnswer(load ? await load() : endpoint, answer);
  }
  return answer as EndpointResult<E>;
}

/** A same-origin URL with query parameters, for plain download links (the auth cookie goes along). */
export const apiUrl = (path: string, query?: Record<string, QueryValue>): string => buildUrl(path, query);

/** The one HTTP client: session cookie, JSON, errors as ApiError, body unwrapped. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body' | 'form'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
  postForm: <T>(path: string, form: Record<string, string>, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, form }),
  upload,
};
