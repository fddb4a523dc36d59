import { describe, expect, it } from 'vitest';
import { isBuiltFromPersonalData } from './personal-password.ts';

const pwChange = { fullName: 'Pw Change', email: 'pw-change@test.ru' };
const ivan = { fullName: 'Ivan Petrov', email: 'ivan.petrov@bank.ru' };
const cyrillic = { fullName: 'Щукин Юрий Алексеевич', email: 'y.schukin@mail.ru' };
const olga = { fullName: 'Ольга Кузнецова-Жукова', email: 'okz@example.ru' };

describe('isBuiltFromPersonalData', () => {
  it.each([
    ['Pw Change 2026', pwChange],
    ['pwchange2026', pwChange],
    ['PW-CHANGE-2026!', pwChange],
    ['Change Pw !!!! 12', pwChange],
    ['  pw   change   ', pwChange],
    ['Ivan Petrov 2026', ivan],
    ['IVAN.PETROV.1990', ivan],
    ['Petrov Ivan 2026', ivan],
    ['petrov2026petrov', ivan],
    ['Ivan!!!!!!!!!!', ivan],
    ['1990 PetrovIvan 1990', ivan],
    ['P3tr0v 1v4n 1990', ivan],
    ['Иван Петров 2026', ivan],
    ['Щукин Юрий 1985', cyrillic],
    ['Yuriy Shchukin 1985', cyrillic],
    ['Schukin Yuri 85!!', cyrillic],
    ['Yurij Alekseevich 1985', cyrillic],
    ['shchukin y.schukin 1', cyrillic],
    ['Olga Kuznetsova 1977', olga],
    ['Zhukova-Kuznetsova 77', olga],
    ['ольга жукова 1977', olga],
  ])('refuses %j for %o', (password, account) => {
    expect(isBuiltFromPersonalData(password, account)).toBe(true);
  });

  it.each([
    ['correct horse battery', ivan],
    ['Ivan loves tomato soup', ivan],
    ['petrovich is my cat 12', ivan],
    ['123456789012', ivan],
    ['!!!!!!!!!!!!!!', ivan],
    ['бумага чайник 42 облако', cyrillic],
    ['Pw Change 2026', ivan],
  ])('accepts %j for %o (other rules may still refuse it)', (password, account) => {
    expect(isBuiltFromPersonalData(password, account)).toBe(false);
  });

  it('stays fast on digits that are both separators and look-alike letters', () => {
    const started = Date.now();
    expect(
      isBuiltFromPersonalData(`${'1'.repeat(127)}x`, { fullName: 'Li Lilli Illi', email: 'il@li.ru' }),
    ).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('does not read a digit as an initial: an all-digit password is not built from one', () => {
    // «t» and «g» stand alone between digits in this address; «7» and «9» look like them.
    expect(isBuiltFromPersonalData('123456789012', { email: 'analyst-mwy20g2t-2@test.ru' })).toBe(false);
    expect(isBuiltFromPersonalData('t.schukin1990', { email: 't.schukin@bank.ru' })).toBe(true);
  });

  it('has nothing to compare without a name or e-mail', () => {
    expect(isBuiltFromPersonalData('anything 2026', {})).toBe(false);
  });
});
