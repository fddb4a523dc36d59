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
