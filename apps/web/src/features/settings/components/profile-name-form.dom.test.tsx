// @vitest-environment happy-dom
import { userSchema } from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useUser } from '@/lib/auth';
import { meAnswer, userFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { ProfileNameForm } from './profile-name-form';

const PROFILE = '/api/v1/user/profile';

/** The app bar's name, which reads the current user. */
function AppBarName() {
  return <p>{useUser()?.fullName ?? ''}</p>;
}

const render = async () => {
  const api = stubApi([
    meAnswer(),
    {
      method: 'PATCH',
      path: PROFILE,
      schema: userSchema,
      body: { ...userFixture(), fullName: 'Иванова Анна Сергеевна' },
    },
  ]);
  const rendered = renderDom({
    element: (
      <>
        <AppBarName />
        <ProfileNameForm user={userFixture()} />
      </>
    ),
  });
  await screen.findByText('Иванова Анна Петровна', { selector: 'p' });
  return { ...rendered, api, name: screen.getByLabelText('ФИО') as HTMLInputElement };
};

describe('settings: the profile name', () => {
  it('requires a name in Russian and sends nothing', async () => {
    const { user, api, name } = await render();
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Обязательное поле')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('patches the trimmed name, says so and reads the current user again', async () => {
    const { user, api, name } = await render();
    const meReads = () => api.calls.filter((call) => call.url === '/api/v1/auth/me').length;
    const readsBefore = meReads();
    await user.clear(name);
    await user.type(name, ' Иванова Анна Сергеевна ');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByText('Профиль сохранён')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([
      { method: 'PATCH', url: PROFILE, body: { fullName: 'Иванова Анна Сергеевна' } },
    ]);
    // The app bar's name comes from the current user, which is read again.
    await waitFor(() => expect(meReads()).toBe(readsBefore + 1));
  });
});
