// @vitest-environment happy-dom
import { addItemsResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { vinItemFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { SingleItemForm } from './single-item-form';

const ADD = '/api/v1/monitoring/regular-check/form-vin';
const VIN = vinItemFixture.identifier;

// Rows as the server answers them; the contract's schema checks their shape.
const answer = (over: { added?: unknown[]; duplicates?: unknown[]; rejected?: unknown[] }) => {
  const body = { added: [], restored: [], duplicates: [], rejected: [], warnings: [], ...over };
  return {
    method: 'POST',
    path: ADD,
    schema: addItemsResponseSchema,
    body: {
      ...body,
      counts: {
        rows: 1,
        added: body.added.length,
        restored: body.restored.length,
        duplicates: body.duplicates.length,
        rejected: body.rejected.length,
      },
    },
  };
};

const submitVin = async (user: ReturnType<typeof renderDom>['user'], vin: string) => {
  const form = await screen.findByRole('form', { name: 'Добавить VIN' });
  await user.type(within(form).getByLabelText(/^VIN/), vin);
  await user.type(within(form).getByLabelText(/^Метка/), 'Lada 2109');
  await user.click(within(form).getByRole('button', { name: 'Поставить на мониторинг' }));
  return form;
};

const chips = () =>
  within(screen.getByTestId('add-result'))
    .getAllByText(/^(Добавлено|Уже на мониторинге|Отклонено): \d+$/)
    .map((chip) => chip.textContent);

describe('monitoring upload: one VIN by hand', () => {
  it('sends a lower-case VIN upper-cased, shows the added count and marks the portfolio stale', async () => {
    const api = stubApi([answer({ added: [{ rowNumber: 1, item: vinItemFixture }] })]);
    const { user, queryClient } = renderDom({ element: <SingleItemForm /> });
    queryClient.setQueryData(queryKeys.monitoringItems.list({ page: 1 }), { items: [], total: 0 });

    const form = await submitVin(user, VIN.toLowerCase());

    expect(await screen.findByText('Объект поставлен на мониторинг')).toBeTruthy();
    expect(api.calls).toEqual([
      {
        method: 'POST',
        url: ADD,
        body: { rows: [{ vin: VIN, label: 'Lada 2109', contractNumber: null, pledgorName: null }] },
      },
    ]);
    expect(chips()).toEqual(['Добавлено: 1', 'Уже на мониторинге: 0', 'Отклонено: 0']);
    expect(screen.getByText('На мониторинг поставлен 1 объект.')).toBeTruthy();
    // The portfolio's cached pages are invalidated, so the items list reads them again when shown.
    expect(queryClient.getQueryState(queryKeys.monitoringItems.list({ page: 1 }))?.isInvalidated).toBe(true);
    // Accepted: the form is empty for the next one.
    await waitFor(() => expect((within(form).getByLabelText(/^VIN/) as HTMLInputElement).value).toBe(''));
  });

  it('shows a VIN already on monitoring as a duplicate with its reason', async () => {
    stubApi([
      answer({
        duplicates: [
          {
            rowNumber: 1,
            identifier: VIN,
            displayIdentifier: VIN,
            reason: 'existing',
            message: 'Уже на мониторинге',
            itemId: vinItemFixture.id,
            firstRowNumber: null,
          },
        ],
      }),
    ]);
    const { user } = renderDom({ element: <SingleItemForm /> });
    await submitVin(user, VIN);

    const duplicates = await screen.findByTestId('duplicate-rows');
    expect(chips()).toEqual(['Добавлено: 0', 'Уже на мониторинге: 1', 'Отклонено: 0']);
    expect(within(duplicates).getByText(VIN)).toBeTruthy();
    expect(within(duplicates).getByText('Уже на мониторинге')).toBeTruthy();
    expect(within(duplicates).getByRole('link', { name: 'Открыть' }).getAttribute('href')).toContain(
      `item=${vinItemFixture.id}`,
    );
    expect(screen.queryByText('Объект поставлен на мониторинг')).toBeNull();
  });

  it('shows a refused row with its Russian reason on the VIN field and the rejected count', async () => {
    const refusal = 'VIN: этот идентификатор в архиве другой организации';
    stubApi([answer({ rejected: [{ rowNumber: 1, field: 'vin', message: refusal }] })]);
    const { user } = renderDom({ element: <SingleItemForm /> });
    const form = await submitVin(user, VIN);

    const rejected = await screen.findByTestId('rejected-rows');
    expect(chips()).toEqual(['Добавлено: 0', 'Уже на мониторинге: 0', 'Отклонено: 1']);
    expect(within(rejected).getByText(refusal)).toBeTruthy();
    // The same reason under the field, and what was typed stays there to be fixed.
    expect(within(form).getByText(refusal)).toBeTruthy();
    expect((within(form).getByLabelText(/^VIN/) as HTMLInputElement).value).toBe(VIN);
  });
});
