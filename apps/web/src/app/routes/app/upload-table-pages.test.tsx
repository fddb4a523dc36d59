import { type UploadStatus, uploadDetailSchema } from '@pledgewatch/contract';
import { uploadEndpoints } from '@pledgewatch/contract/endpoints/uploads';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadSendingView } from '@/components/uploads/upload-flow';
import { uploadQueryOptions } from '@/features/monitoring-upload/api/get-upload';
import UploadTablePage, {
  flowTexts as itemsTexts,
} from '@/features/monitoring-upload/components/upload-table-page';
import { pledgeUploadQueryOptions } from '@/features/pledge-upload-events/api/get-pledge-upload';
import UploadEventsTablePage, {
  flowTexts as eventsTexts,
} from '@/features/pledge-upload-events/components/upload-events-table-page';
import { meQueryOptions } from '@/lib/auth';
import { uploadDetailFixture as detail, meAnswer, UPLOAD_ID } from '@/testing/fixtures';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';

const kinds = [
  {
    name: 'monitoring items',
    kind: 'items',
    page: <UploadTablePage />,
    texts: itemsTexts,
    query: uploadQueryOptions,
    title: 'Загрузка из файла',
    doneButtons: ['Открыть портфель', 'Загрузить другой файл', 'История загрузок'],
  },
  {
    name: 'pledge events',
    kind: 'pledge_events',
    page: <UploadEventsTablePage />,
    texts: eventsTexts,
    query: pledgeUploadQueryOptions,
    title: 'Файл уведомлений о залоге',
    doneButtons: ['Открыть реестр', 'Открыть пакеты', 'Загрузить другой файл'],
  },
] as const;

afterEach(() => vi.unstubAllGlobals());

const render = async (
  kind: (typeof kinds)[number],
  status: UploadStatus | null,
  role: 'analyst' | 'viewer' = 'analyst',
) => {
  stubApi([
    meAnswer(role),
    ...(status
      ? [
          {
            path: uploadEndpoints.detail.path.replace(':id', UPLOAD_ID),
            schema: uploadDetailSchema,
            body: detail(status, kind.kind),
          },
        ]
      : []),
  ]);
  return renderRoute({
    path: '*',
    url: status ? `/upload/table?upload=${UPLOAD_ID}` : '/upload/table',
    element: kind.page,
    prefetch: (queryClient) =>
      Promise.all([
        queryClient.prefetchQuery(meQueryOptions()),
        status ? queryClient.prefetchQuery(kind.query(UPLOAD_ID)) : null,
      ]),
  });
};

const html = (node: ReactNode) => renderToString(node);

describe.each(kinds)('the upload table page of $name (shared flow)', (kind) => {
  it('starts with the file box and the template links', async () => {
    const page = await render(kind, null);
    expect(textsOf(page, 'h2')).toEqual([kind.title]);
    expect(page).toContain('data-testid="drop-zone"');
    expect(visibleText(page)).toContain('Выбрать файл');
    expect(visibleText(page)).toContain(kind.texts.templateHint);
  });

  it('shows a viewer the notice instead of the file box', async () => {
    const page = await render(kind, null, 'viewer');
    expect(page).not.toContain('data-testid="drop-zone"');
    expect(textsOf(page, 'h2')).toEqual([]);
  });

  it('sends with a progress bar and a cancel button', () => {
    const file = new File(['VIN\n'], 'bank-list.csv');
    const page = html(
      <UploadSendingView texts={kind.texts} sending={{ file, percent: 40 }} onCancel={() => {}} />,
    );
    expect(page).toContain('data-testid="upload-sending"');
    expect(page).toContain(`aria-label="${kind.texts.sending}"`);
    expect(page).toContain('aria-valuenow="40"');
    expect(visibleText(page)).toContain('bank-list.csv · ');
    expect(textsOf(page, 'button')).toEqual(['Отмена']);
  });

  it.each(['received', 'validating', 'importing'] as const)('shows progress while %s', async (status) => {
    const page = await render(kind, status);
    expect(page).toContain(`data-status="${status}"`);
    expect(textsOf(page, 'h2')).toEqual(['bank-list.csv']);
    expect(page).toContain(
      `aria-label="${status === 'importing' ? kind.texts.importing : kind.texts.validating}"`,
    );
    // Cancellable until the import starts (the server stops a check under way).
    expect(textsOf(page, 'button')).toEqual(status === 'importing' ? [] : [kind.texts.cancel]);
  });

  it('previews the checked rows with the error rows, confirm and cancel', async () => {
    const page = await render(kind, 'validated');
    const text = visibleText(page);
    expect(text).toContain(kind.texts.previewHint);
    expect(text).toContain('XTA210990Y2765432');
    expect(text).toContain('VIN: 17 символов');
    expect(page).toContain('data-testid="upload-counts"');
    expect(textsOf(page, 'button')).toEqual([
      'Изменить сопоставление',
      kind.texts.confirm,
      kind.texts.cancel,
    ]);
  });

  it('shows above the preview the header row found, the sheet, each column with a mark on the guessed ones, and the skipped rows', async () => {
    const text = visibleText(await render(kind, 'validated'));
    expect(text).toContain('Строки 1–3 пропущены: заголовок найден в строке 4');
    expect(text).toContain('Лист книги');
    expect(text).toContain('№ п/п → не загружается');
    expect(text).toContain('VIN (идентификационный номер) → VIN');
    expect(text).toContain('Угадано по названию');
    expect(text).toContain('Пропущено строк итогов и примечаний: 1 (строка 7: «Итого: 2 единицы»)');
  });

  it('asks for the mapping: the question, each column with its samples and a field to choose', async () => {
    const page = await render(kind, 'needs_mapping');
    const text = visibleText(page);
    expect(text).toContain('Не найден столбец «VIN» или «Номер документа»');
    expect(text).toContain('Строки 1–3 пропущены: заголовок найден в строке 4');
    expect(page.match(/data-testid="mapping-column"/g)).toHaveLength(2);
    expect(text).toContain('Примеры: XTA210990Y2765432 · BADVIN');
    expect(page).toContain('aria-label="Поле: VIN (идентификационный номер)"');
    expect(textsOf(page, 'button')).toContain('Продолжить проверку');
    expect(textsOf(page, 'button')).toContain(kind.texts.cancel);
  });

  it.each(['done', 'done_with_errors'] as const)(
    'shows the result when %s, with the end buttons',
    async (status) => {
      const page = await render(kind, status);
      const text = visibleText(page);
      expect(page).toContain('data-testid="upload-result"');
      expect(text).toContain(status === 'done' ? kind.texts.done : kind.texts.doneWithErrors);
      expect(text).toContain('VIN: 17 символов');
      const at = kind.doneButtons.map((label) => text.indexOf(label));
      expect(at.every((index) => index >= 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
    },
  );

  it.each(['failed', 'cancelled'] as const)('says why when %s and offers another file', async (status) => {
    const page = await render(kind, status);
    const text = visibleText(page);
    expect(text).toContain(status === 'failed' ? 'Файл повреждён' : kind.texts.cancelled);
    expect(text).toContain(kind.texts.another);
    expect(page).not.toContain('data-testid="upload-result"');
  });
});
