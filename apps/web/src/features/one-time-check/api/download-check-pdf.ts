import { checkEndpoints } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { saveFile } from '@/lib/save-file';

export type DownloadCheckPdfInput = { id: string; fileName: string };

/** Fetches the PDF with the bearer token and hands it to the browser as a file download. */
export async function downloadCheckPdf({ id, fileName }: DownloadCheckPdfInput): Promise<void> {
  const blob = await callEndpoint(checkEndpoints.oneTimeCheckPdf, { params: { id } });
  saveFile(blob, fileName);
}

export const useDownloadCheckPdf = (config?: MutationConfig<typeof downloadCheckPdf>) =>
  useMutation({ ...config, mutationFn: downloadCheckPdf });
