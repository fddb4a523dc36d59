import { createRequire } from 'node:module';
import {
  isBuiltFromPersonalData,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  VALIDATION_MESSAGES,
} from '@pledgewatch/contract';
import { AppError } from './app-error.ts';

/**
 * The one password rule, used by every path that sets a password (reset and invitation links,
 * change password, the CLI and demo accounts). Length as in OWASP ASVS 4.0 2.1.1–2.1.2; a password
 * made of the user's own name or e-mail parts with digits and symbols around them is refused
 * outright (contract `isBuiltFromPersonalData`: zxcvbn rates some of them strong); common and easily
 * guessed passwords are refused with zxcvbn-ts and its list of common passwords (ASVS 2.1.7), which
 * is kept by that project rather than here.
 */

/** zxcvbn scores 0–4; 3 means "safely unguessable: moderate protection from offline attacks". */
const MIN_SCORE = 3;

export const PASSWORD_MESSAGES = {
  sameAsEmail: 'Пароль не должен совпадать с e-mail',
  personal:
    'Пароль не должен состоять из вашего имени или частей e-mail с цифрами и знаками: такие пароли подбирают первыми',
  common: 'Это один из самых распространённых паролей, его подбирают первым. Придумайте другой',
  weak: 'Пароль слишком легко подобрать: в нём распространённые слова, даты, повторы или ряды клавиш, либо ваше имя или e-mail. Подойдёт фраза из трёх-четырёх не связанных между собой слов',
} as const;

type ZxcvbnCore = typeof import('@zxcvbn-ts/core');
type ZxcvbnCommon = typeof import('@zxcvbn-ts/language-common');

let checker: InstanceType<ZxcvbnCore['ZxcvbnFactory']> | undefined;

/** Built on first use: the dictionaries take a few megabytes that sign-in alone never needs. */
function getChecker() {
  if (!checker) {
    // The packages ship CommonJS without named ESM exports, hence require.
    const require = createRequire(import.meta.url);
    const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as ZxcvbnCore;
    const common = require('@zxcvbn-ts/language-common') as ZxcvbnCommon;
    checker = new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  }
  return checker;
}

/** Why the password is refused, in Russian, or null when it may be used. */
export function passwordProblem(
  password: string,
  account: { email?: string | null; fullName?: string | null },
): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return VALIDATION_MESSAGES.minLength(PASSWORD_MIN_LENGTH);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return VALIDATION_MESSAGES.maxLength(PASSWORD_MAX_LENGTH);
  }
  const email = account.email?.trim().toLowerCase() ?? '';
  const folded = password.trim().toLowerCase();
  if (email && (folded === email || folded === email.split('@')[0])) {
    return PASSWORD_MESSAGES.sameAsEmail;
  }
  if (isBuiltFromPersonalData(password, account)) {
    return PASSWORD_MESSAGES.personal;
  }
  const userInputs = [email, email.split('@')[0] ?? '', ...(account.fullName?.split(/\s+/) ?? [])].filter(
    (input) => input.length >= 3,
  );
  const result = getChecker().check(password, userInputs);
  const wholeCommon = result.sequence.some(
    (match) =>
      match.pattern === 'dictionary' &&
      'dictionaryName' in match &&
      match.dictionaryName === 'passwords-common' &&
      match.token.length === password.length,
  );
  if (wholeCommon) {
    return PASSWORD_MESSAGES.common;
  }
  if (result.score < MIN_SCORE) {
    return PASSWORD_MESSAGES.weak;
  }
  return null;
}

/** Throws 422 WEAK_PASSWORD with the reason on `field` when the password may not be used. */
export function assertPasswordAllowed(
  password: string,
  account: { email?: string | null; fullName?: string | null },
  field = 'new_password',
): void {
  const problem = passwordProblem(password, account);
  if (problem) {
    throw new AppError('WEAK_PASSWORD', { message: problem, fieldErrors: [{ field, message: problem }] });
  }
}
