import { open } from 'node:fs/promises';
import { openCsv } from './csv-reader.ts';
import type { RowSource } from './row-source.ts';
import { sniffFormat } from './sniff.ts';
import { openXlsx, type XlsxLimits } from './xlsx-reader.ts';

const HEAD_BYTES = 64 * 1024;

/**
 * Opens an upload file by its content (CSV or XLSX) in this thread; throws UploadFileError for
 * anything else. Callers use openRowSource, which runs this in a worker thread.
 */
export async function openRowSourceHere(filePath: string, limits: XlsxLimits): Promise<RowSource> {
  const handle = await open(filePath, 'r');
  let head: Uint8Array;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(HEAD_BYTES, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const format = sniffFormat(head);
  return format === 'xlsx' ? openXlsx(filePath, limits) : openCsv(filePath, head, size);
}
