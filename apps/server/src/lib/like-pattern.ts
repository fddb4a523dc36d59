/** A LIKE pattern finding `text` anywhere: the user's `%`, `_` and `\` are matched as themselves. */
export const containsPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
