/**
 * Column headers as banks' exports write them, reduced to one form so a table of synonyms can match
 * them: «№ Договора*» and «Номер договора» are the same header, «VIN (идентификационный номер)» is
 * also read as «VIN» and as «идентификационный номер».
 */

/** Lower case, ё → е, «№» → «номер», punctuation and extra spaces dropped: «№ Договора*» → «номер договора». */
export const normaliseHeader = (value: string) =>
  value
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/№/g, ' номер ')
    .replace(/[^0-9a-zа-я]+/g, ' ')
    .trim();

const BRACKETS = /[([{]([^)\]}]*)[)\]}]/g;

/**
 * The forms a header is looked up by, most specific first: the whole header, the header without
 * its brackets, then what each bracket holds («Идентификационный номер (VIN)» → «идентификационный
 * номер vin», «идентификационный номер», «vin»). Empty forms are left out.
 */
export function headerForms(value: string): string[] {
  const forms = [normaliseHeader(value)];
  if (/[([{]/.test(value)) {
    forms.push(normaliseHeader(value.replace(BRACKETS, ' ')));
    for (const match of value.matchAll(BRACKETS)) {
      forms.push(normaliseHeader(match[1] ?? ''));
    }
  }
  return [...new Set(forms.filter((form) => form !== ''))];
}

/** A field's header in the kind's template and its usual other names. */
export interface FieldNames {
  field: string;
  title: string;
  aliases: readonly string[];
}

/** How a header was recognised: as the template's own title, or by one of the field's synonyms. */
export type HeaderMatch = { field: string; how: 'title' | 'synonym' };

export type HeaderLookup = (header: string) => HeaderMatch | null;

/**
 * A lookup over the fields' titles and synonyms (both normalised). A header matches when one of its
 * forms equals a name exactly: near names («Номер кузова», «Дата договора», «№ п/п») match nothing.
 */
export function headerLookup(fields: readonly FieldNames[]): HeaderLookup {
  const names = new Map<string, HeaderMatch>();
  for (const column of fields) {
    names.set(normaliseHeader(column.title), { field: column.field, how: 'title' });
  }
  for (const column of fields) {
    for (const alias of column.aliases) {
      const name = normaliseHeader(alias);
      if (!names.has(name)) {
        names.set(name, { field: column.field, how: 'synonym' });
      }
    }
  }
  return (header) => {
    const forms = headerForms(header);
    for (const [i, form] of forms.entries()) {
      const match = names.get(form);
      if (match) {
        // The header read through its brackets is a guess even when a part is the template's title.
        return i === 0 ? match : { field: match.field, how: 'synonym' };
      }
    }
    return null;
  };
}
