// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from './save-file';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('saveFile', () => {
  it('clicks a download link to the blob under the file name, leaves no link behind and frees the URL later', () => {
    vi.useFakeTimers();
    const blob = new Blob(['a;b\n'], { type: 'text/csv' });
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:saved');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
    });

    saveFile(blob, 'Статистика 01.03.2026–31.03.2026.csv');

    expect(create).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([
      { href: 'blob:saved', download: 'Статистика 01.03.2026–31.03.2026.csv', attached: true },
    ]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(revoke).toHaveBeenCalledWith('blob:saved');
  });
});
