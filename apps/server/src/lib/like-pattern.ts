/** A LIKE pattern finding `text` anywhere: the user's `%`, `_` and `\` are matched as themselves. */
export const containsPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The digits a trigram index should look `text` up by, when `text` has other parts too: its longest
 * run of digits, if at least this long. A contract number's common parts («кд», «2025») are in nearly
 * every row, and a trigram index asked for all of `text` reads their whole posting lists (64 ms at a
 * million items for «кд-2025/000042»); its distinctive number alone finds a few thousand rows in a few
 * ms, and the whole text is then compared on those rows only.
 */
export const DISTINCTIVE_DIGITS_MIN = 5;

export function distinctiveDigits(text: string): string | null {
  const longest = (text.match(/\d+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= DISTINCTIVE_DIGITS_MIN && longest !== text ? longest : null;
}

/** A condition «the expression contains one of these texts», with its parameters. */
export interface ContainsMatch {
  /** The parameters the condition refers to, in order. */
  params: string[];
  /** The condition on `expression` (lower case, as the texts), its parameters numbered from `first`. */
  condition: (expression: string, first: number) => string;
}

/**
 * Contains any of `texts` (lower case), each as one trigram index condition: the whole text, or its
 * distinctive digits (distinctiveDigits) with the whole text compared by `strpos`, which the index does
 * not take, so that the index reads only the selective trigrams.
 */
export function containsAny(texts: string[]): ContainsMatch {
  const parts = texts.map((text) => {
    const digits = distinctiveDigits(text);
    return digits
      ? {
          params: [containsPattern(digits), text],
          sql: (expression: string, at: number) =>
            `(${expression} LIKE $${at} AND strpos(${expression}, $${at + 1}) > 0)`,
        }
      : {
          params: [containsPattern(text)],
          sql: (expression: string, at: number) => `${expression} LIKE $${at}`,
        };
  });
  return {
    params: parts.flatMap((part) => part.params),
    condition: (expression, first) => {
      let at = first;
      const conditions = parts.map((part) => {
        const sql = part.sql(expression, at);
        at += part.params.length;
        return sql;
      });
      return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' OR ')})`;
    },
  };
}
