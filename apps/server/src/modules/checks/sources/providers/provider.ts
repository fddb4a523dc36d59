import type { IncomingHttpHeaders } from 'node:http';
import type { Finding, SourceType } from '@pledgewatch/contract';
import type { DocumentType } from '@pledgewatch/identifiers';
import type { RemoteSourceConfig } from '../../../../config/env.ts';
import type { SourceProviderName } from '../../../../config/source-providers.ts';
import type { CheckItem } from '../source-adapter.ts';

/** Everything a provider adapter may use for one item: its configuration and the one way out. */
export interface ProviderContext {
  type: SourceType;
  config: RemoteSourceConfig;
  /** Sends one request (one rate slot, through lib/outbound); transport failures already mapped. */
  send: (request: ProviderRequest) => Promise<ProviderAnswer>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/** One provider's answer for an item: its findings, and those of other types the same answer held. */
export interface ProviderResult {
  findings: Finding[];
  /**
   * Findings of other source types read from the same paid answer (one Avtocod report serves five
   * types): cached for those types when they are served by the same provider, so they cost nothing.
   */
  related?: Partial<Record<SourceType, Finding[]>>;
}

/** What it serves, its default address and its token's form: config/source-providers.ts. */
export interface Provider {
  name: SourceProviderName;
  /** The document types it searches by, when narrower than the source type's (Fedresurs: no passports). */
  documentTypes?: readonly DocumentType[];
  /** Throws a ProviderFailure on any failure; never returns «nothing found» for a failure. */
  fetch: (ctx: ProviderContext, item: CheckItem) => Promise<ProviderResult>;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  /** Appended to the configured base URL. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
}

export interface ProviderAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}
