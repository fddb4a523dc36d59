import { type AuditResponse, auditEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint, endpointUrl } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The screen's filters; empty strings are left out of the request. */
export type AuditFilters = { actorId: string; action: string; entity: string; from: string; to: string };
export type AuditLogQuery = AuditFilters & { page: number; pageSize: number };

const present = (filters: Partial<AuditFilters>) =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '' && value !== undefined));

export const getAuditLog = ({ page, pageSize, ...filters }: AuditLogQuery): Promise<AuditResponse> =>
  callEndpoint(auditEndpoints.list, { query: { page, pageSize, ...present(filters) } });

export const auditLogQueryOptions = (query: AuditLogQuery) =>
  queryOptions({ queryKey: queryKeys.auditLog.entries(query), queryFn: () => getAuditLog(query) });

export const useAuditLog = (query: AuditLogQuery) =>
  useQuery({ ...auditLogQueryOptions(query), placeholderData: keepPreviousData });

export const auditFacetsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.auditLog.facets, queryFn: () => callEndpoint(auditEndpoints.facets) });

export const useAuditFacets = () => useQuery(auditFacetsQueryOptions());

/** A plain link to the export (the session cookie authorises the GET). */
export const auditExportUrl = (filters: AuditFilters, format: 'xlsx' | 'csv'): string =>
  endpointUrl(auditEndpoints.export, { query: { format, ...present(filters) } });
