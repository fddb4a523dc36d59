import {
  type EndpointDefinition,
  IDEMPOTENT_ENDPOINTS,
  idempotencyHeadersSchema,
  operationIdOf,
} from '@pledgewatch/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type { z } from 'zod';
import { errors } from './http.ts';

type Parsed<E, K extends string> = E extends { [key in K]: infer S extends z.ZodType }
  ? z.output<S>
  : unknown;

/** The request as the handler sees it: params, query and body already parsed by the endpoint's schemas. */
export type EndpointRequest<E extends EndpointDefinition> = FastifyRequest<{
  Params: Parsed<E, 'params'>;
  Querystring: Parsed<E, 'query'>;
  Body: E extends { bodyType: 'multipart' } ? unknown : Parsed<E, 'body'>;
}>;

/** A handler returns the answer (checked against the response schema) or the reply it sent itself. */
export type EndpointHandler<E extends EndpointDefinition> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<z.input<E['response']> | FastifyReply>;

export type EndpointRouteOptions = {
  onRequest?: onRequestHookHandler | onRequestHookHandler[];
  /** Off for file answers whose HEAD would do all the work only to drop the body. */
  exposeHeadRoute?: boolean;
};

/** The endpoint's full path below the plugin's prefix (modules are registered under `/api/v1/...`). */
export function pathBelowPrefix(prefix: string, path: string): string {
  if (!path.startsWith(prefix)) {
    throw new Error(`Endpoint ${path} is outside the plugin prefix ${prefix}`);
  }
  // The prefix itself is registered as '/', as Fastify does for a plugin's root route.
  return path.slice(prefix.length) || '/';
}

/**
 * Registers a route from its contract definition: method, path, schemas, success status and the
 * OpenAPI details all come from `endpoint`; the module adds only who may call it and the handler.
 * The success status is set before the handler runs, so a handler that returns a value answers with it.
 */
export function route<E extends EndpointDefinition>(
  app: FastifyInstance,
  endpoint: E,
  options: EndpointRouteOptions,
  handler: EndpointHandler<E>,
): void {
  const status = endpoint.status ?? 200;
  const consumes =
    endpoint.bodyType === 'multipart'
      ? ['multipart/form-data']
      : endpoint.bodyType === 'form'
        ? ['application/x-www-form-urlencoded']
        : undefined;
  const idempotent = IDEMPOTENT_ENDPOINTS.includes(endpoint);
  app.route({
    method: endpoint.method,
    url: pathBelowPrefix(app.prefix, endpoint.path),
    ...options,
    // plugins/idempotency.ts replays these POSTs' first answer to a retry with the same key.
    config: { idempotent },
    schema: {
      ...(idempotent ? { headers: idempotencyHeadersSchema } : {}),
      operationId: operationIdOf(endpoint),
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(endpoint.public ? { security: [] } : {}),
      ...(consumes ? { consumes } : {}),
      ...(endpoint.produces ? { produces: [...endpoint.produces] } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body && endpoint.bodyType !== 'multipart' ? { body: endpoint.body } : {}),
      response: { [status]: endpoint.response, ...errors(...(endpoint.errors ?? [])) },
    },
    handler: (async (request: FastifyRequest, reply: FastifyReply) => {
      if (status !== 200) {
        reply.code(status);
      }
      return handler(request as EndpointRequest<E>, reply);
    }) as RouteHandlerMethod,
  });
}
