import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { SourceType } from '@pledgewatch/contract';
import type { RemoteSourceConfig } from '../../../../config/env.ts';
import type { ProviderContext } from './provider.ts';
import { ProviderFailure } from './provider-failure.ts';
import { sendProviderRequest } from './provider-http.ts';

/** Test helpers for the provider contract tests: a loopback server that records and answers as told. */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends the body a few bytes at a time, this many ms apart (a slow drip). */
  dripMs?: number;
}

/** A fixture file's text; `name` relative to providers/. */
export const fixture = (name: string): string => readFileSync(path.join(import.meta.dirname, name), 'utf8');
export const jsonAnswer = (name: string, status = 200): ScriptedAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: fixture(name),
});

export async function startFixtureServer(
  answer: (request: RecordedRequest) => ScriptedAnswer,
): Promise<{ url: string; requests: RecordedRequest[]; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const scripted = answer(recorded);
      response.writeHead(scripted.status ?? 200, scripted.headers ?? { 'content-type': 'application/json' });
      const body = Buffer.from(scripted.body ?? '');
      if (!scripted.dripMs) {
        response.end(body);
        return;
      }
      let offset = 0;
      const timer = setInterval(() => {
        if (offset >= body.length || response.destroyed) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write(body.subarray(offset, offset + 4));
        offset += 4;
      }, scripted.dripMs);
      response.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a provider adapter gets in the app, against the given address. */
export function providerContext(
  type: SourceType,
  config: Partial<RemoteSourceConfig> & Pick<RemoteSourceConfig, 'provider' | 'url'>,
  now = () => Date.now(),
): ProviderContext {
  const full: RemoteSourceConfig = { timeoutMs: 2000, retries: 0, rateLimit: 1000, price: 0, ...config };
  return {
    type,
    config: full,
    // The budget is the source's (remote-source.ts); a contract test is about the provider's format.
    send: (request) =>
      sendProviderRequest(
        { type, config: full, takeTurn: async () => ({ dueAtMs: Date.now() }), missedTurn: async () => {} },
        request,
      ),
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))),
    now,
  };
}

/** The failure a call ends in, or null when it succeeded. */
export async function failureOf(call: Promise<unknown>): Promise<ProviderFailure | null> {
  try {
    await call;
    return null;
  } catch (error) {
    if (error instanceof ProviderFailure) {
      return error;
    }
    throw error;
  }
}
