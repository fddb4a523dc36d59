// @vitest-environment happy-dom
import {
  errorResponseSchema,
  type UploadStatus,
  uploadDetailSchema,
  uploadSchema,
} from '@pledgewatch/contract';
import { uploadEndpoints } from '@pledgewatch/contract/endpoints/uploads';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, UPLOAD_ID, uploadDetailFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import UploadTablePage from './upload-table-page';

const DETAIL = uploadEndpoints.detail.path.replace(':id', UPLOAD_ID);
const CONFIRM = uploadEndpoints.confirm.path.replace(':id', UPLOAD_ID);
const CANCEL = uploadEndpoints.cancel.path.replace(':id', UPLOAD_ID);

/** The server as it stands with the upload in `status`, answering an action with `action`. */
const server = (status: UploadStatus, action?: StubAnswer) =>
  stubApi([
    meAnswer('analyst'),
    { method: 'GET', path: DETAIL, schema: uploadDetailSchema, body: uploadDetailFixture(status) },
    ...(action ? [action] : []),
  ]);
const answer = (path: string, status: UploadStatus): StubAnswer => ({
  method: 'POST',
  path,
  schema: uploadSchema,
  body: uploadDetailFixture(status),
});

/** A checked file waiting for the user, opened by its id in the URL as the history links do. */
const openChecked = async () => {
  const rendered = renderDom({
    element: <UploadTablePage />,
    path: '*',
    url: `/upload/table?upload=${UPLOAD_ID}`,
  });
  await screen.findByRole('button', { name: 'Подтвердить загрузку' });
  return rendered;
};
const actions = (calls: { method: string; url: string }[]) => calls.filter((call) => call.method === 'POST');
const detailReads = (calls: { method: string; url: string }[]) =>
  calls.filter((call) => call.method === 'GET' && call.url === DETAIL).length;

describe('monitoring upload: a checked file', () => {
  it('cancelling asks first, then posts the cancel and reads the upload again', async () => {
    server('validated');
    const { user } = await openChecked();
    await user.click(screen.getByRole('button', { name: 'Отменить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отменить загрузку?' });
    expect(
      within(dialog).getByText('Строки файла «bank-list.csv» не будут добавлены на мониторинг.'),
    ).toBeTruthy();

    // From here the server holds the upload as cancelled.
    const after = server('cancelled', answer(CANCEL, 'cancelled'));
    expect(actions(after.calls)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Отменить загрузку' }));

    expect(await screen.findByText('Загрузка отменена, ничего не добавлено.')).toBeTruthy();
    expect(actions(after.calls)).toEqual([{ method: 'POST', url: CANCEL, body: {} }]);
    await waitFor(() => expect(detailReads(after.calls)).toBe(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closing the question keeps the upload and sends nothing', async () => {
    const api = server('validated', answer(CANCEL, 'cancelled'));
    const { user } = await openChecked();
    await user.click(screen.getByRole('button', { name: 'Отменить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отменить загрузку?' });
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(actions(api.calls)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Подтвердить загрузку' })).toBeTruthy();
  });

  it('confirming posts the confirm and reads the upload again until it is done', async () => {
    server('validated');
    const { user } = await openChecked();
    const after = server('done', answer(CONFIRM, 'importing'));
    await user.click(screen.getByRole('button', { name: 'Подтвердить загрузку' }));

    expect(await screen.findByText('Загрузка завершена.')).toBeTruthy();
    expect(actions(after.calls)).toEqual([{ method: 'POST', url: CONFIRM, body: {} }]);
    expect(detailReads(after.calls)).toBeGreaterThanOrEqual(1);
  });

  it('shows a refusal of the confirm in Russian and keeps the preview', async () => {
    server('validated');
    const { user } = await openChecked();
    server('validated', {
      method: 'POST',
      path: CONFIRM,
      schema: errorResponseSchema,
      body: {
        statusCode: 409,
        code: 'UPLOAD_NOT_VALIDATED',
        message: 'Загрузку уже подтвердили или отменили',
      },
      status: 409,
    });
    await user.click(screen.getByRole('button', { name: 'Подтвердить загрузку' }));

    expect(await screen.findByText('Загрузку уже подтвердили или отменили')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Подтвердить загрузку' })).toBeTruthy();
  });
});
