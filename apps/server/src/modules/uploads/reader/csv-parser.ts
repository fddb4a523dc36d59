const QUOTE = 34; // "
const CR = 13;

/**
 * An incremental RFC 4180 parser: feed decoded text in chunks, get complete records back. Quoted
 * fields may hold delimiters, doubled quotes and line breaks; CRLF and LF both end a record. Plain
 * fields are cut with indexOf, which keeps a million-row file well under a second.
 */
export class CsvParser {
  private pending = '';
  private readonly delimiter: string;

  constructor(delimiter: string) {
    this.delimiter = delimiter;
  }

  /** Records completed by this chunk; a record cut at the chunk's end waits for the next one. */
  push(chunk: string): string[][] {
    this.pending += chunk;
    return this.parse(false);
  }

  /** The last record, when the file does not end with a line break. */
  end(): string[][] {
    return this.parse(true);
  }

  private parse(final: boolean): string[][] {
    const text = this.pending;
    const length = text.length;
    const delimiter = this.delimiter;
    const records: string[][] = [];
    let position = 0;
    // Cached next positions, so a line without the delimiter is not rescanned for every field.
    let nextDelimiter = -2;
    let nextNewline = -2;
    const find = (from: number) => {
      if (nextDelimiter !== -1 && nextDelimiter < from) {
        nextDelimiter = text.indexOf(delimiter, from);
      }
      if (nextNewline !== -1 && nextNewline < from) {
        nextNewline = text.indexOf('\n', from);
      }
    };

    parsing: while (position < length) {
      const recordStart = position;
      const fields: string[] = [];
      while (true) {
        let value: string;
        if (text.charCodeAt(position) === QUOTE) {
          let cursor = position + 1;
          value = '';
          while (true) {
            const quote = text.indexOf('"', cursor);
            if (quote === -1 || (quote + 1 >= length && !final)) {
              if (!final) {
                position = recordStart;
                break parsing;
              }
              value += text.slice(cursor, quote === -1 ? length : quote);
              position = length;
              break;
            }
            if (text.charCodeAt(quote + 1) === QUOTE) {
              value += text.slice(cursor, quote + 1);
              cursor = quote + 2;
              continue;
            }
            value += text.slice(cursor, quote);
            position = quote + 1;
            break;
          }
          // Anything between the closing quote and the delimiter is kept, as spreadsheets do.
          find(position);
          const end = nearest(nextDelimiter, nextNewline);
          if (end === -1) {
            if (!final) {
              position = recordStart;
              break parsing;
            }
            value += text.slice(position);
            position = length;
            fields.push(value);
            records.push(fields);
            break;
          }
          value += trimCr(text, position, end, end === nextNewline);
          fields.push(value);
          position = end + 1;
          if (end === nextNewline) {
            records.push(fields);
            break;
          }
          continue;
        }
        find(position);
        const end = nearest(nextDelimiter, nextNewline);
        if (end === -1) {
          if (!final) {
            position = recordStart;
            break parsing;
          }
          fields.push(trimCr(text, position, length, true));
          position = length;
          records.push(fields);
          break;
        }
        fields.push(trimCr(text, position, end, end === nextNewline));
        position = end + 1;
        if (end === nextNewline) {
          records.push(fields);
          break;
        }
        if (position >= length) {
          // A delimiter as the very last character: one more empty field.
          if (!final) {
            position = recordStart;
            break parsing;
          }
          fields.push('');
          records.push(fields);
          break;
        }
      }
    }
    this.pending = text.slice(position);
    return records;
  }
}

function nearest(a: number, b: number): number {
  if (a === -1) {
    return b;
  }
  if (b === -1) {
    return a;
  }
  return a < b ? a : b;
}

function trimCr(text: string, from: number, to: number, atLineEnd: boolean): string {
  return atLineEnd && to > from && text.charCodeAt(to - 1) === CR
    ? text.slice(from, to - 1)
    : text.slice(from, to);
}
