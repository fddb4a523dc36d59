import type { EndpointDefinition } from '../endpoint.ts';
import { apiKeyEndpoints } from './api-keys.ts';
import { authEndpoints } from './auth.ts';
import { checkEndpoints } from './checks.ts';
import { healthEndpoints } from './health.ts';
import { monitoringEndpoints } from './monitoring.ts';
import { newsEndpoints } from './news.ts';
import { notificationEndpoints } from './notifications.ts';
import { auditEndpoints, platformEndpoints } from './platform.ts';
import { pledgeEndpoints } from './pledges.ts';
import { savedViewEndpoints } from './saved-views.ts';
import { searchEndpoints } from './search.ts';
import { uploadEndpoints } from './uploads.ts';
import { memberEndpoints, userEndpoints } from './user.ts';

export * from './api-keys.ts';
export * from './auth.ts';
export * from './checks.ts';
export * from './health.ts';
export * from './monitoring.ts';
export * from './news.ts';
export * from './notifications.ts';
export * from './platform.ts';
export * from './pledges.ts';
export * from './saved-views.ts';
export * from './search.ts';
export * from './uploads.ts';
export * from './user.ts';

/** Every endpoint the server exposes, by domain: the server test checks both directions against it. */
export const endpointCatalogue = {
  auth: authEndpoints,
  health: healthEndpoints,
  user: userEndpoints,
  members: memberEndpoints,
  platform: platformEndpoints,
  audit: auditEndpoints,
  news: newsEndpoints,
  monitoring: monitoringEndpoints,
  uploads: uploadEndpoints,
  checks: checkEndpoints,
  notifications: notificationEndpoints,
  pledges: pledgeEndpoints,
  apiKeys: apiKeyEndpoints,
  search: searchEndpoints,
  savedViews: savedViewEndpoints,
};

export const allEndpoints = (): EndpointDefinition[] =>
  Object.values(endpointCatalogue).flatMap((domain) => Object.values(domain) as EndpointDefinition[]);

const operationIds = new Map<EndpointDefinition, string>();
for (const [domain, endpoints] of Object.entries(endpointCatalogue)) {
  for (const [name, endpoint] of Object.entries(endpoints) as [string, EndpointDefinition][]) {
    operationIds.set(endpoint, `${domain}${name[0]!.toUpperCase()}${name.slice(1)}`);
  }
}

/**
 * The OpenAPI `operationId` of an endpoint: its domain and its name in the catalogue
 * (`monitoringItems`, `pledgesCreatePackage`), stable as long as the contract's names are, so a
 * client generated from the document keeps its method names.
 */
export function operationIdOf(endpoint: EndpointDefinition): string {
  const id = operationIds.get(endpoint);
  if (!id) {
    throw new Error(`Endpoint ${endpoint.method} ${endpoint.path} is not in the catalogue`);
  }
  return id;
}
