// @vitest-environment happy-dom
import { errorResponseSchema, messageResponseSchema, profileResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import { useProfile } from '../api/get-profile';
import { PasswordForm } from './password-form';

const PROFILE = '/api/v1/user/profile';
const CHANGE = '/api/v1/user/change-password';
const NEW = 'новый-пароль-2026';

const stub = (changeAnswer: StubAnswer) =>
  stubApi([
    {
      method: 'GET',
      path: PROFILE,
      schema: profileResponseSchema,
      body: { user: userFixture(), pendingEmail: null, sessions: [] },
    },
    changeAnswer,
  ]);
const changed: StubAnswer = {
  method: 'POST',
  path: CHANGE,
  schema: messageResponseSchema,
  body: { message: 'Пароль изменён' },
};

/** The sessions tab beside the form, reading the profile, as the settings screen does. */
function ProfileReader() {
  const profile = useProfile();
  return <p>{profile.data ? 'профиль прочитан' : ''}</p>;
}

const render = async () => {
  const rendered = renderDom({
    element: (
      <>
        <ProfileReader />
        <PasswordForm />
      </>
    ),
  });
  await screen.findByText('профиль прочитан');
  const form = screen.getByRole('button', { name: 'Сменить пароль' }).closest('form') as HTMLFormElement;
  return { ...rendered, form: within(form) };
};

describe('settings: changing the password', () => {
  it('shows the Russian messages for empty, short and unmatched passwords and sends nothing', async () => {
    const api = stub(changed);
    const { user, form } = await render();
    await user.click(form.getByRole('button', { name: 'Сменить пароль' }));
    expect(await form.findAllByText('Обязательное поле')).toHaveLength(3);

    await user.type(form.getByLabelText('Новый пароль'), 'короткий');
    await user.type(form.getByLabelText('Повторите новый пароль'), 'другой');
    await user.click(form.getByRole('button', { name: 'Сменить пароль' }));
    expect(await form.findByText('Минимальная длина — 12 симв.')).toBeTruthy();

    await user.clear(form.getByLabelText('Новый пароль'));
    await user.type(form.getByLabelText('Новый пароль'), NEW);
    await user.click(form.getByRole('button', { name: 'Сменить пароль' }));
    expect(await form.findByText('Пароли не совпадают')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('posts the old and new password, says so, empties the form and reads the profile again', async () => {
    const api = stub(changed);
    const { user, form } = await render();
    const profileReads = () => api.calls.filter((call) => call.url === PROFILE).length;
    const readsBefore = profileReads();

    await user.type(form.getByLabelText('Текущий пароль'), 'старый-пароль');
    await user.type(form.getByLabelText('Новый пароль'), NEW);
    await user.type(form.getByLabelText('Повторите новый пароль'), NEW);
    await user.click(form.getByRole('button', { name: 'Сменить пароль' }));

    expect(await screen.findByText('Пароль изменён')).toBeTruthy();
    // The repeat stays in the browser: only the two passwords travel.
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: CHANGE, body: { old_password: 'старый-пароль', new_password: NEW } },
    ]);
    await waitFor(() => expect((form.getByLabelText('Текущий пароль') as HTMLInputElement).value).toBe(''));
    // Other sessions may have ended: the profile (with its sessions) is read again.
    await waitFor(() => expect(profileReads()).toBe(readsBefore + 1));
  });

  it('puts the server refusal of the old password on its field in Russian', async () => {
    const api = stub({
      method: 'POST',
      path: CHANGE,
      schema: errorResponseSchema,
      body: {
        statusCode: 422,
        code: 'VALIDATION_ERROR',
        message: 'Проверьте поля',
        fieldErrors: [{ field: 'old_password', message: 'Неверный текущий пароль' }],
      },
      status: 422,
    });
    const { user, form } = await render();
    await user.type(form.getByLabelText('Текущий пароль'), 'не-тот');
    await user.type(form.getByLabelText('Новый пароль'), NEW);
    await user.type(form.getByLabelText('Повторите новый пароль'), NEW);
    await user.click(form.getByRole('button', { name: 'Сменить пароль' }));

    expect(await form.findByText('Неверный текущий пароль')).toBeTruthy();
    expect(screen.queryByText('Пароль изменён')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });
});
