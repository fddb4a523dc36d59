/**
 * No template or dataset column takes more than a few hundred characters: a longer cell is cut here,
 * in the reader, and its row refused, so a hostile file's one huge cell never sits in memory or the
 * database.
 */
export const MAX_CELL_CHARS = 1000;
/** Columns read per row; cells beyond are not read (the templates have 6 and about 30 columns). */
export const MAX_COLUMNS = 256;
