import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '../../lib/password-policy.ts';
import {
  bearer,
  buildTestApp,
  createSignedInUser,
  latestMailTo,
  signIn,
  uniqueEmail,
} from '../../testing/test-app.ts';
import { createOrganisation } from '../organisations/organisations.service.ts';

/**
 * Issue #27, finding 4: a password made of the user's own name or e-mail parts is refused on every
 * path that sets one: change, reset link, invitation link, and the CLI.
 */
const { app, connectionString } = await buildTestApp();
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;

const post = (url: string, payload: object, token?: string) =>
  app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });

const expectPersonal = (response: { statusCode: number; json: () => unknown }) => {
  expect(response.statusCode).toBe(422);
  expect(response.json()).toMatchObject({
    code: 'WEAK_PASSWORD',
    fieldErrors: [{ field: 'new_password', message: PASSWORD_MESSAGES.personal }],
  });
};

describe('passwords built from the user’s own name or e-mail', () => {
  it('change password refuses «Pw Change 2026» for «Pw Change»', async () => {
    const user = await createSignedInUser(app);
    const renamed = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
      payload: { fullName: 'Pw Change' },
    });
    expect(renamed.statusCode).toBe(200);
    for (const password of ['Pw Change 2026', 'pwchange!2026', 'CHANGE pw 1990 !!']) {
      const response = await post(
        '/api/v1/user/change-password',
        { old_password: user.password, new_password: password },
        user.token,
      );
      expectPersonal(response);
    }
    expect(await signIn(app, user.email, user.password)).toBeTruthy();
  });

  it('a reset link refuses the name and the e-mail’s local part, and keeps working for a good password', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const { token } = await latestMailTo(app, user.email);
    // The test user is «Тестовый Пользователь»: its transliteration, and the local part of the e-mail.
    for (const password of ['Testovyy Polzovatel 2026', `${user.email.split('@')[0]}!!`]) {
      expectPersonal(await post('/api/v1/user/reset-password/confirm', { token, new_password: password }));
    }
    const good = await post('/api/v1/user/reset-password/confirm', {
      token,
      new_password: 'river lamp orbit 7',
    });
    expect(good.statusCode).toBe(200);
  });

  it('an invitation link refuses «Ivan Petrov 2026» for the invited «Иван Петров»', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const email = uniqueEmail('ivan.petrov');
    const invited = await post(
      '/api/v1/users',
      { email, fullName: 'Иван Петров', role: 'analyst' },
      admin.token,
    );
    expect(invited.statusCode).toBe(202);
    const { token } = await latestMailTo(app, email);
    for (const password of ['Ivan Petrov 2026', 'Иван Петров 2026', 'petrov.ivan.1990']) {
      expectPersonal(await post('/api/v1/user/reset-password/confirm', { token, new_password: password }));
    }
  });

  it('the CLI refuses «Ivan Petrov 2026» for Ivan Petrov and creates no account', async () => {
    const organisationId = await createOrganisation(app.db, 'Банк для CLI');
    const email = uniqueEmail('cli-ivan');
    const run = promisify(execFile)(
      nodeBinary,
      [
        path.join(repoRoot, 'apps/server/src/cli.ts'),
        'create-user',
        '--organisation',
        organisationId,
        '--email',
        email,
        '--name',
        'Ivan Petrov',
        '--password',
        'Ivan Petrov 2026',
      ],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: connectionString },
      },
    );
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(PASSWORD_MESSAGES.personal);
    const { rowCount } = await app.db.query('SELECT 1 FROM users WHERE email = $1', [email]);
    expect(rowCount).toBe(0);
  });
});
