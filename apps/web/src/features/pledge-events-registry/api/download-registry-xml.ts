import { pledgeEndpoints } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { saveFile } from '@/lib/save-file';

export type DownloadRegistryXmlInput = { packageId: string; fileName: string };

/**
 * The package's notifications in the registry's XML (a ZIP), fetched with the session so that a
 * package failing the format's rules answers with its list of errors instead of a downloaded error.
 */
export async function downloadRegistryXml({ packageId, fileName }: DownloadRegistryXmlInput): Promise<void> {
  const blob = await callEndpoint(pledgeEndpoints.exportPackage, {
    params: { id: packageId },
    query: { format: 'xml' },
  });
  saveFile(blob, fileName);
}

export const useDownloadRegistryXml = (config?: MutationConfig<typeof downloadRegistryXml>) =>
  useMutation({ ...config, mutationFn: downloadRegistryXml });
