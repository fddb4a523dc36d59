import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../demo/demo-seed.ts';
import { PASSWORD_MESSAGES, passwordProblem } from './password-policy.ts';

const account = { email: 'ivan.petrov@bank.ru', fullName: 'Иван Петров' };

describe('passwordProblem', () => {
  it('refuses passwords shorter than 12 or longer than 128 characters', () => {
    expect(passwordProblem('12345678', account)).toBe('Минимальная длина — 12 симв.');
    expect(passwordProblem('Tr0ub4dor&3x', account)).not.toBe('Минимальная длина — 12 симв.');
    expect(passwordProblem(`${'correct horse battery '.repeat(6)}x`, account)).toBe(
      'Максимальная длина — 128 симв.',
    );
  });

  it('refuses the common passwords of the zxcvbn-ts list, also with case changes', () => {
    for (const password of ['123456789012', 'qwerty123456', '1q2w3e4r5t6y', 'QWERTY123456']) {
      expect(passwordProblem(password, account), password).toBe(PASSWORD_MESSAGES.common);
    }
  });

  it('refuses easily guessed patterns: common words with years, repeats, keyboard rows', () => {
    for (const password of [
      'Password2026',
      'iloveyou1234',
      'aaaaaaaaaaaa',
      'P@ssw0rd2024!',
      'qwertyuiop12',
    ]) {
      expect(passwordProblem(password, account), password).toBe(PASSWORD_MESSAGES.weak);
    }
  });

  it('refuses the e-mail, its local part, and passwords built on the user’s own name', () => {
    expect(passwordProblem('Ivan.Petrov@bank.ru', account)).toBe(PASSWORD_MESSAGES.sameAsEmail);
    expect(passwordProblem('ivan.petrov', { email: 'ivan.petrov@bank.ru' })).not.toBeNull();
    expect(passwordProblem('ivan.petrov1', account)).toBe(PASSWORD_MESSAGES.personal);
  });

  it('refuses the name and e-mail parts with digits, symbols and spaces around them (issue #27, finding 4)', () => {
    // zxcvbn alone rated these strong enough.
    expect(passwordProblem('Pw Change 2026', { email: 'pw@test.ru', fullName: 'Pw Change' })).toBe(
      PASSWORD_MESSAGES.personal,
    );
    for (const password of [
      'Ivan Petrov 2026',
      'petrov IVAN 1990!',
      'Иван Петров 2026',
      'P3tr0v-1v4n-1990',
    ]) {
      expect(passwordProblem(password, account), password).toBe(PASSWORD_MESSAGES.personal);
    }
    expect(passwordProblem('Ivan Petrov 2026', { email: 'x@bank.ru', fullName: 'Иван Петров' })).toBe(
      PASSWORD_MESSAGES.personal,
    );
  });

  it('accepts passphrases and the demo sign-ins the README prints', () => {
    for (const password of ['correct horse battery', 'reset and renewed', 'бумага чайник 42 облако']) {
      expect(passwordProblem(password, account), password).toBeNull();
    }
    for (const demo of DEMO_ACCOUNTS) {
      expect(passwordProblem(demo.password, demo), demo.email).toBeNull();
    }
  });
});
