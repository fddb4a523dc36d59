/**
 * Hands a fetched file to the browser as a download under `fileName`. The object URL is freed a
 * minute later, when the browser has long taken the file (freeing it at once can cancel the save).
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
