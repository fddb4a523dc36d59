// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import UploadEventsFormPage from './upload-events-form-page';

describe('pledge-event form', () => {
  it('shows the Russian rule for a malformed registration number and sends nothing', async () => {
    const api = stubApi([meAnswer('analyst')]);
    const { user } = renderDom({ element: <UploadEventsFormPage /> });
    const form = await screen.findByRole('form', { name: 'Уведомление о залоге' });
    await user.type(within(form).getByLabelText(/Регистрационный номер залога/), '2013-1-2');
    await user.click(within(form).getByRole('button', { name: 'Внести в реестр' }));
    await waitFor(() =>
      expect(
        within(form).getAllByText(/^Регистрационный номер: формат ГГГГ-ННН-НННННН-ННН/).length,
      ).toBeGreaterThan(0),
    );
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});

describe('pledge-event form: who may file which notice', () => {
  const ADMIN_ONLY = 'Исключение залога может оформить только администратор организации.';
  const submit = (form: HTMLElement) =>
    within(form).getByRole('button', { name: 'Внести в реестр' }) as HTMLButtonElement;

  it('shuts an exclusion for an analyst with the Russian reason, and opens again for another kind', async () => {
    stubApi([meAnswer('analyst')]);
    const { user } = renderDom({ element: <UploadEventsFormPage /> });
    const form = await screen.findByRole('form', { name: 'Уведомление о залоге' });
    await waitFor(() => expect(submit(form).disabled).toBe(false));

    await user.click(within(form).getByRole('button', { name: /^Исключение/ }));
    expect(await within(form).findByText(ADMIN_ONLY)).toBeTruthy();
    expect(submit(form).disabled).toBe(true);

    await user.click(within(form).getByRole('button', { name: /^Изменение/ }));
    expect(within(form).queryByText(ADMIN_ONLY)).toBeNull();
    expect(submit(form).disabled).toBe(false);
  }, 120_000);

  it('lets an admin file an exclusion', async () => {
    stubApi([meAnswer('admin')]);
    const { user } = renderDom({ element: <UploadEventsFormPage /> });
    const form = await screen.findByRole('form', { name: 'Уведомление о залоге' });
    await waitFor(() => expect(submit(form).disabled).toBe(false));
    await user.click(within(form).getByRole('button', { name: /^Исключение/ }));
    expect(
      within(form)
        .getByRole('button', { name: /^Исключение/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(within(form).queryByText(ADMIN_ONLY)).toBeNull();
    expect(submit(form).disabled).toBe(false);
  }, 120_000);

  it('shows a viewer why there is no form', async () => {
    stubApi([meAnswer('viewer')]);
    renderDom({ element: <UploadEventsFormPage /> });
    expect(
      await screen.findByText('Для ввода уведомлений нужна роль аналитика или администратора.'),
    ).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Уведомление о залоге' })).toBeNull();
  }, 120_000);
});
