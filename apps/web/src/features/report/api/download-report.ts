import {
  type EndpointQuery,
  errorResponseSchema,
  monitoringEndpoints,
  REPORT_HEADERS,
} from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { getAuthHref } from '@/config/paths';
import { texts } from '@/features/report/texts';
import { ApiError, endpointUrl } from '@/lib/api-client';
import { markSessionEnded } from '@/lib/auth-token';

export type ReportProgress = {
  /** Bytes received so far. */
  received: number;
  /** The server's size estimate (0 when it sent none). */
  estimated: number;
  /** Rows the report holds, known as soon as the answer starts. */
  rows: number | null;
};

export type DownloadedReport = { fileName: string; blob: Blob; rows: number | null };

/** The report's query as the page holds it; lists are sent comma-joined. */
export type ReportRequest = EndpointQuery<typeof monitoringEndpoints.report>;

/** The address of a report, for a plain link (the auth_token cookie authorises the GET). */
export const reportUrl = (query: ReportRequest): string => endpointUrl(monitoringEndpoints.report, { query });

/** The file name from Content-Disposition (RFC 5987 `filename*` first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed name: fall through to the plain one.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a report with fetch, reading the body as it streams in so the page can show progress
 * (the server sends the row count and a size estimate in headers before the first row).
 */
export async function downloadReport(
  query: ReportRequest,
  options: { signal?: AbortSignal; onProgress?: (progress: ReportProgress) => void } = {},
): Promise<DownloadedReport> {
  let response: Response;
  try {
    // The HttpOnly session cookie authorises the request.
    response = await fetch(reportUrl(query), {
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') {
      throw error;
    }
    throw new ApiError(0, 'NETWORK_ERROR', texts.errors.network);
  }
  if (!response.ok) {
    let error = new ApiError(response.status, `HTTP_${response.status}`, texts.errors.unknown);
    try {
      const parsed = errorResponseSchema.safeParse(await response.json());
      if (parsed.success) {
        error = new ApiError(response.status, parsed.data.code, parsed.data.message, parsed.data.fieldErrors);
      }
    } catch {
      // Not JSON: keep the generic message.
    }
    if (response.status === 401) {
      markSessionEnded();
      window.location.assign(getAuthHref(`${window.location.pathname}${window.location.search}`));
    }
    throw error;
  }
  const rowsHeader = response.headers.get(REPORT_HEADERS.rows);
  const rows = rowsHeader === null ? null : Number(rowsHeader);
  const estimated = Number(response.headers.get(REPORT_HEADERS.estimatedBytes) ?? 0);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  options.onProgress?.({ received, estimated, rows });
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      chunks.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      options.onProgress?.({ received, estimated, rows });
    }
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  return {
    fileName: fileNameOf(response.headers.get('content-disposition'), `report.${query.format ?? 'xlsx'}`),
    blob: new Blob(chunks, { type }),
    rows,
  };
}

export const useDownloadReport = () =>
  useMutation({
    mutationFn: (input: {
      query: ReportRequest;
      signal?: AbortSignal;
      onProgress?: (progress: ReportProgress) => void;
    }) => downloadReport(input.query, { signal: input.signal, onProgress: input.onProgress }),
  });
