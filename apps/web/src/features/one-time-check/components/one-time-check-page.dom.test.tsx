// @vitest-environment happy-dom
import { errorResponseSchema, oneTimeCheckSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { queryKeys } from '@/lib/query-keys';
import { vinItemFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import OneTimeCheckPage from './one-time-check-page';

const CHECK = '/api/v1/monitoring/one-time-check';
const VIN = vinItemFixture.identifier;

const check = {
  id: '7d0f2c1e-0000-4000-8000-0000000000d1',
  number: 'ПР-2026-000123',
  kind: 'vin',
  documentType: null,
  documentTypeLabel: null,
  identifier: VIN,
  identifierDisplay: VIN,
  decoded: vinItemFixture.vin,
  warnings: [],
  status: 'completed',
  findingsCount: 0,
  demo: true,
  sources: [],
  createdBy: { id: null, fullName: 'Иванова Анна Петровна' },
  createdAt: '2026-11-20T08:00:00.000Z',
  durationMs: 1200,
};

const answers: Record<'ok' | 'refused', StubAnswer> = {
  ok: { method: 'POST', path: CHECK, schema: oneTimeCheckSchema, body: check },
  refused: {
    method: 'POST',
    path: CHECK,
    schema: errorResponseSchema,
    status: 429,
    body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Лимит разовых проверок на сегодня исчерпан' },
  },
};

/** Where the router is, so a test sees the page leave for the results. */
function Location() {
  const { pathname, search } = useLocation();
  return <output aria-label="адрес">{`${pathname}${search}`}</output>;
}

const render = () =>
  renderDom({
    path: '*',
    url: paths.oneTimeCheck.getHref(),
    element: (
      <>
        <OneTimeCheckPage />
        <Location />
      </>
    ),
  });

const submitVin = async (user: ReturnType<typeof render>['user'], vin: string) => {
  const form = await screen.findByRole('form', { name: 'Разовая проверка' });
  await user.type(within(form).getByLabelText(/^VIN/), vin);
  await user.click(within(form).getByRole('button', { name: 'Проверить' }));
  return form;
};

describe('one-time check: the form', () => {
  it('refuses a VIN of the wrong length in Russian before anything is sent', async () => {
    const api = stubApi([answers.ok]);
    const { user } = render();
    const form = await submitVin(user, 'XTA2109');
    expect(await within(form).findByText('VIN: должно быть 17 символов, указано 7')).toBeTruthy();
    expect(api.calls).toEqual([]);
    expect(screen.getByRole('status', { name: 'адрес' }).textContent).toBe(paths.oneTimeCheck.getHref());
  });

  it('posts a valid VIN and goes to the results of the check it answered', async () => {
    const api = stubApi([answers.ok]);
    const { user, queryClient } = render();
    await submitVin(user, VIN);

    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'адрес' }).textContent).toBe(
        `${paths.oneTimeCheckResults.getHref()}?id=${check.id}`,
      ),
    );
    expect(api.calls).toEqual([{ method: 'POST', url: CHECK, body: { vin: VIN } }]);
    // The results screen opens from the cache instead of asking the server again.
    expect(queryClient.getQueryData(queryKeys.oneTimeChecks.one(check.id))).toMatchObject({
      number: 'ПР-2026-000123',
    });
  });

  it('shows a refusal in Russian and gives the form back with the VIN typed', async () => {
    const api = stubApi([answers.refused]);
    const { user } = render();
    await submitVin(user, VIN);

    const form = await screen.findByRole('form', { name: 'Разовая проверка' });
    expect(await within(form).findByText('Лимит разовых проверок на сегодня исчерпан')).toBeTruthy();
    expect((within(form).getByLabelText(/^VIN/) as HTMLInputElement).value).toBe(VIN);
    expect(api.calls.map(({ method, url }) => `${method} ${url}`)).toEqual([`POST ${CHECK}`]);
    expect(screen.getByRole('status', { name: 'адрес' }).textContent).toBe(paths.oneTimeCheck.getHref());
  });
});
