import { checkEndpoints } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export type DownloadCheckPdfInput = { id: string; fileName: string };

/** Fetches the PDF with the bearer token and hands it to the browser as a file download. */
export async function downloadCheckPdf({ id, fileName }: DownloadCheckPdfInput): Promise<void> {
  const blob = await callEndpoint(checkEndpoints.oneTimeCheckPdf, { params: { id } });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next task; the URL is not needed any more.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const useDownloadCheckPdf = (config?: MutationConfig<typeof downloadCheckPdf>) =>
  useMutation({ ...config, mutationFn: downloadCheckPdf });
