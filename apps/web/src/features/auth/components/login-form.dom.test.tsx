// @vitest-environment happy-dom
import { errorResponseSchema, tokenResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { queryKeys } from '@/lib/query-keys';
import { meAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import { LoginForm } from './login-form';

const LOGIN = '/api/v1/auth/login';

const loginAnswer = (status: number): StubAnswer =>
  status === 200
    ? {
        method: 'POST',
        path: LOGIN,
        schema: tokenResponseSchema,
        body: { access_token: 't', token_type: 'bearer' },
      }
    : {
        method: 'POST',
        path: LOGIN,
        schema: errorResponseSchema,
        status,
        body: { statusCode: status, code: 'INVALID_CREDENTIALS', message: 'Неверный e-mail или пароль' },
      };

/** The login call's form body (it is sent form-urlencoded, not JSON), as a plain object. */
const formBody = (body: unknown) => Object.fromEntries(new URLSearchParams(String(body)));

describe('auth: the sign-in form', () => {
  beforeEach(() => {
    // A refused sign-in is a 401 too; on the sign-in page it is shown, not redirected to itself.
    window.history.replaceState(null, '', paths.auth.path);
  });

  it('shows the Russian messages for empty fields and sends nothing', async () => {
    const api = stubApi([loginAnswer(200), meAnswer()]);
    const onSuccess = vi.fn();
    const { user } = renderDom({ element: <LoginForm onSuccess={onSuccess} /> });
    await user.click(await screen.findByRole('button', { name: 'Войти' }));
    expect(await screen.findAllByText('Обязательное поле')).toHaveLength(2);

    // Spaces only are no e-mail either (the contract trims it), the password still missing.
    await user.type(screen.getByLabelText(/E-mail/), '   ');
    await user.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findAllByText('Обязательное поле')).toHaveLength(2);
    expect(api.calls).toEqual([]);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('posts the e-mail and password to the sign-in endpoint, then reads the user and goes on', async () => {
    const api = stubApi([loginAnswer(200), meAnswer()]);
    const onSuccess = vi.fn();
    const { user, queryClient } = renderDom({ element: <LoginForm onSuccess={onSuccess} /> });
    await user.type(await screen.findByLabelText(/E-mail/), 'analyst@bank.example');
    await user.type(screen.getByLabelText(/Пароль/), 'секрет-123');
    await user.click(screen.getByRole('button', { name: 'Войти' }));

    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(api.calls.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `POST ${LOGIN}`,
      'GET /api/v1/auth/me',
    ]);
    expect(formBody(api.calls[0]?.body)).toEqual({
      grant_type: 'password',
      username: 'analyst@bank.example',
      password: 'секрет-123',
      scope: '',
      client_id: '',
      client_secret: '',
    });
    expect(queryClient.getQueryData(queryKeys.auth.me)).toMatchObject({
      user: { email: 'analyst@bank.example' },
    });
  });

  it('shows the server refusal (401) in Russian and stays on the form', async () => {
    const api = stubApi([loginAnswer(401), meAnswer()]);
    const onSuccess = vi.fn();
    const { user } = renderDom({ element: <LoginForm onSuccess={onSuccess} /> });
    await user.type(await screen.findByLabelText(/E-mail/), 'analyst@bank.example');
    await user.type(screen.getByLabelText(/Пароль/), 'не-тот');
    await user.click(screen.getByRole('button', { name: 'Войти' }));

    expect(await screen.findByText('Неверный e-mail или пароль')).toBeTruthy();
    expect(api.calls.map(({ method, url }) => `${method} ${url}`)).toEqual([`POST ${LOGIN}`]);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe(paths.auth.path);
  });
});
