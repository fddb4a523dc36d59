import { describe, expect, it } from 'vitest';
import { renderRoute, visibleText } from '@/testing/render-route';
import { SourceImportProgress } from './source-import-progress';

const render = (importing: Parameters<typeof SourceImportProgress>[0]['importing']) =>
  renderRoute({ path: '/', url: '/', element: <SourceImportProgress importing={importing} /> });

describe('SourceImportProgress', () => {
  it('shows the phase, the bytes of the file and the rows read, with a determinate bar while loading', async () => {
    const html = await render({
      version: 7,
      phase: 'loading',
      bytesRead: 256 * 1024 * 1024,
      bytesTotal: 512 * 1024 * 1024,
      rowsRead: 21_500_000,
    });
    const text = visibleText(html);
    expect(text).toContain('Загружается версия 7: Загрузка строк');
    expect(text).toMatch(/256(,0)? МБ из 512(,0)? МБ, строк 21 500 000/);
    expect(html).toContain('aria-valuenow="50"');
  });

  it('shows an indeterminate bar while the index is built', async () => {
    const html = await render({ version: 8, phase: 'indexing', bytesRead: 10, bytesTotal: 10, rowsRead: 3 });
    expect(visibleText(html)).toContain('Загружается версия 8: Построение индекса');
    expect(html).not.toContain('aria-valuenow');
  });

  it('shows the download of the list: bytes downloaded of the total, with a determinate bar', async () => {
    const html = await render({
      version: 9,
      phase: 'downloading',
      bytesRead: 111 * 1024 * 1024,
      bytesTotal: 444 * 1024 * 1024,
      rowsRead: 0,
    });
    const text = visibleText(html);
    expect(text).toContain('Загружается версия 9: Скачивание');
    expect(text).toMatch(/111(,0)? МБ из 444(,0)? МБ/);
    expect(text).not.toContain('строк');
    expect(html).toContain('aria-valuenow="25"');
  });
});
