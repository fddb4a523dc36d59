/**
 * Passwords built from the account's own name or e-mail («Ivan Petrov 2026», «petrov.ivan!!», «Иван1990»):
 * the first thing anyone who knows the person tries. zxcvbn scores some of them as strong, so this rule
 * refuses them outright: a password whose letters are nothing but parts of the name or e-mail, in any
 * order, case or keyboard layout of the alphabet (Cyrillic is compared transliterated), with digits,
 * spaces and symbols around them. Plain functions without zod, so the web can show it in a form too.
 */

/** Russian letters in Latin, with the spellings people actually use (passport, GOST, phonetic). */
const CYRILLIC: Record<string, readonly string[]> = {
  а: ['a'],
  б: ['b'],
  в: ['v', 'w'],
  г: ['g'],
  д: ['d'],
  е: ['e', 'ye'],
  ё: ['e', 'yo', 'jo'],
  ж: ['zh', 'j'],
  з: ['z'],
  и: ['i'],
  й: ['y', 'i', 'j', ''],
  к: ['k'],
  л: ['l'],
  м: ['m'],
  н: ['n'],
  о: ['o'],
  п: ['p'],
  р: ['r'],
  с: ['s'],
  т: ['t'],
  у: ['u'],
  ф: ['f'],
  х: ['kh', 'h', 'x'],
  ц: ['ts', 'c', 'tz'],
  ч: ['ch'],
  ш: ['sh'],
  щ: ['shch', 'sch'],
  ъ: ['', 'ie'],
  ы: ['y', 'i'],
  ь: [''],
  э: ['e'],
  ю: ['yu', 'iu', 'ju'],
  я: ['ya', 'ia', 'ja'],
};

/** Digits and symbols that stand for letters (p@ssw0rd); a character may still be a mere separator. */
const LOOKALIKES: Record<string, string> = {
  '0': 'o',
  '1': 'il',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'il',
};

/** At most this many spellings of one name part (a long Cyrillic name has many). */
const MAX_SPELLINGS = 64;

/** The ways a part of a name can be written in Latin letters, lowercase. */
function spellings(part: string): string[] {
  let results = [''];
  for (const char of part) {
    const options = CYRILLIC[char] ?? (/[a-z]/.test(char) ? [char] : ['']);
    const next: string[] = [];
    for (const prefix of results) {
      for (const option of options) {
        if (next.length < MAX_SPELLINGS) {
          next.push(prefix + option);
        }
      }
    }
    results = next;
  }
  return results;
}

const fold = (text: string) => text.normalize('NFKC').toLowerCase();

/** The parts of a name and an e-mail a password may not be made of, in every Latin spelling. */
export function personalParts(account: { email?: string | null; fullName?: string | null }): string[] {
  const email = fold(account.email?.trim() ?? '');
  // The local part names the person; the domain is the organisation's, shared by colleagues (and by
  // the demo sign-ins the README prints).
  const local = email.split('@')[0] ?? '';
  const words = [...fold(account.fullName ?? '').split(/[^\p{L}]+/u), ...local.split(/[^\p{L}]+/u)];
  const parts = new Set<string>();
  for (const word of words) {
    for (const spelling of spellings(word)) {
      // Initials count too: «y.schukin» is the person as much as «schukin».
      if (spelling.length > 0) {
        parts.add(spelling);
      }
    }
  }
  return [...parts].sort((a, b) => b.length - a.length);
}

/** The password as Latin text, lowercase: Cyrillic transliterated the common way. */
function latin(password: string): string {
  let text = '';
  for (const char of fold(password)) {
    text += CYRILLIC[char]?.[0] ?? char;
  }
  return text;
}

const matchesAt = (text: string, at: number, part: string) => {
  if (at + part.length > text.length) {
    return false;
  }
  for (let i = 0; i < part.length; i++) {
    const char = text[at + i] ?? '';
    const want = part[i] ?? '';
    if (char !== want && !(LOOKALIKES[char] ?? '').includes(want)) {
      return false;
    }
  }
  return true;
};

/**
 * Whether every letter of the password belongs to a part of the name or e-mail, with anything else
 * (digits, spaces, symbols) only around them. A walk over positions (not a regular expression, whose
 * backtracking on digits that are both separators and look-alike letters would be exponential).
 */
export function isBuiltFromPersonalData(
  password: string,
  account: { email?: string | null; fullName?: string | null },
): boolean {
  const parts = personalParts(account);
  if (parts.length === 0) {
    return false;
  }
  const text = latin(password);
  // reached[i]: 0 = not reached, 1 = reached with separators only, 2 = reached having used a part.
  const reached = new Uint8Array(text.length + 1);
  reached[0] = 1;
  for (let at = 0; at < text.length; at++) {
    const state = reached[at] ?? 0;
    if (state === 0) {
      continue;
    }
    if (!/\p{L}/u.test(text[at] ?? '')) {
      reached[at + 1] = Math.max(reached[at + 1] ?? 0, state);
    }
    for (const part of parts) {
      // An initial counts written as itself only: its look-alike digit («t» as «7») would make every
      // all-digit password «personal».
      if (part.length === 1 ? text[at] === part : matchesAt(text, at, part)) {
        reached[at + part.length] = 2;
      }
    }
  }
  return reached[text.length] === 2;
}
