import { MAX_CELL_CHARS, MAX_COLUMNS } from './cell-limits.ts';

const QUOTE = 34; // "
const CR = 13;

/** One record: its values (at most MAX_COLUMNS, each at most MAX_CELL_CHARS) and what was cut. */
export interface CsvRecord {
  values: string[];
  /** 0-based columns whose value was longer than MAX_CELL_CHARS, with their real length. */
  longCells: Map<number, number> | null;
  /** Non-empty cells beyond MAX_COLUMNS (dropped). */
  extraCells: number;
}

export interface CsvLimits {
  maxCellChars: number;
  maxColumns: number;
}

/**
 * An incremental RFC 4180 parser: feed decoded text in chunks, get complete records back. Quoted
 * fields may hold delimiters, doubled quotes and line breaks; CRLF and LF both end a record. Plain
 * fields are cut with indexOf, which keeps a million-row file well under a second.
 *
 * The state of the current record is kept between chunks, so each chunk is scanned once whatever
 * the length of a cell, and a cell is never held beyond `maxCellChars` (+1, to know it was longer):
 * a 150 MB cell costs a counter, not 150 MB of memory and a quadratic rescan.
 */
export class CsvParser {
  private readonly delimiter: string;
  private readonly limits: CsvLimits;
  private values: string[] = [];
  private field = '';
  private fieldLength = 0;
  private longCells: Map<number, number> | null = null;
  private extraCells = 0;
  private columns = 0;
  private atFieldStart = true;
  private quoted = false;
  /** A quote was the last character of the previous chunk inside a quoted field. */
  private quotePending = false;
  /** The last character added to the current field was a CR (trimmed if a line feed follows). */
  private lastWasCr = false;
  private started = false;

  constructor(
    delimiter: string,
    limits: CsvLimits = { maxCellChars: MAX_CELL_CHARS, maxColumns: MAX_COLUMNS },
  ) {
    this.delimiter = delimiter;
    this.limits = limits;
  }

  /** Records completed by this chunk; a record cut at the chunk's end waits for the next one. */
  push(chunk: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    const text = chunk;
    const length = text.length;
    const delimiter = this.delimiter;
    let position = 0;
    // Cached next positions, so a line without the delimiter is not rescanned for every field.
    let nextDelimiter = -2;
    let nextNewline = -2;
    while (position < length) {
      this.started = true;
      if (this.quoted) {
        if (this.quotePending) {
          this.quotePending = false;
          if (text.charCodeAt(position) === QUOTE) {
            this.append('"', 0, 1);
            position++;
          } else {
            this.quoted = false;
          }
          continue;
        }
        const quote = text.indexOf('"', position);
        if (quote === -1) {
          this.append(text, position, length);
          position = length;
          break;
        }
        this.append(text, position, quote);
        if (quote + 1 >= length) {
          this.quotePending = true;
          position = length;
          break;
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          this.append('"', 0, 1);
          position = quote + 2;
        } else {
          this.quoted = false;
          position = quote + 1;
        }
        continue;
      }
      if (this.atFieldStart && text.charCodeAt(position) === QUOTE) {
        this.atFieldStart = false;
        this.quoted = true;
        position++;
        continue;
      }
      this.atFieldStart = false;
      // Anything between a closing quote and the delimiter is kept, as spreadsheets do.
      if (nextDelimiter !== -1 && nextDelimiter < position) {
        nextDelimiter = text.indexOf(delimiter, position);
      }
      if (nextNewline !== -1 && nextNewline < position) {
        nextNewline = text.indexOf('\n', position);
      }
      const end = nearest(nextDelimiter, nextNewline);
      if (end === -1) {
        this.append(text, position, length);
        position = length;
        break;
      }
      this.append(text, position, end);
      position = end + 1;
      if (end === nextNewline) {
        records.push(this.endRecord(true));
      } else {
        this.endField(false);
      }
    }
    return records;
  }

  /** The last record, when the file does not end with a line break. */
  end(): CsvRecord[] {
    if (!this.started) {
      return [];
    }
    this.quotePending = false;
    this.quoted = false;
    return [this.endRecord(true)];
  }

  private append(text: string, from: number, to: number): void {
    if (to <= from) {
      return;
    }
    const room = this.limits.maxCellChars + 1 - this.field.length;
    if (room > 0) {
      this.field += to - from <= room ? text.slice(from, to) : text.slice(from, from + room);
    }
    this.fieldLength += to - from;
    this.lastWasCr = text.charCodeAt(to - 1) === CR;
  }

  private endField(atLineEnd: boolean): void {
    let value = this.field;
    let length = this.fieldLength;
    if (atLineEnd && this.lastWasCr && length > 0) {
      length--;
      if (value.length === length + 1) {
        value = value.slice(0, -1);
      }
    }
    const column = this.columns++;
    if (column < this.limits.maxColumns) {
      if (length > this.limits.maxCellChars) {
        this.longCells ??= new Map();
        this.longCells.set(column, length);
        value = value.slice(0, this.limits.maxCellChars);
      }
      this.values.push(value);
    } else if (value.trim() !== '') {
      this.extraCells++;
    }
    this.field = '';
    this.fieldLength = 0;
    this.lastWasCr = false;
    this.atFieldStart = true;
  }

  private endRecord(atLineEnd: boolean): CsvRecord {
    this.endField(atLineEnd);
    const record: CsvRecord = { values: this.values, longCells: this.longCells, extraCells: this.extraCells };
    this.values = [];
    this.longCells = null;
    this.extraCells = 0;
    this.columns = 0;
    this.started = false;
    return record;
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
