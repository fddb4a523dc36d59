import type { RowError } from '../sources/dataset-layouts.ts';

/**
 * The MVD list as published (providers.md §2): a CSV with the header `PASSP_SERIES,PASSP_NUMBER`
 * and one `SSSS,NNNNNN` row per passport. Read byte by byte, without a string per row (a hundred
 * million rows): a good row's 10 digits go straight into COPY text, one bigint a line (leading
 * zeros are digits of the key, so `0304,012345` stays 0304012345, never 304 12345).
 */

export const PASSPORT_LIST_HEADER = 'PASSP_SERIES,PASSP_NUMBER';
export const MAX_REPORTED_ERRORS = 100;
/** A line longer than this is malformed whatever follows; only its start is kept. */
const MAX_LINE_BYTES = 4096;
const MAX_SHOWN_CHARS = 40;

const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/** A refusal of the whole file, with the Russian reason shown to the operator. */
export class PassportListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PassportListError';
  }
}

export interface PassportListCounts {
  /** Data rows read (the header not counted, blank rows counted). */
  rows: number;
  accepted: number;
  rejected: number;
  /** The first MAX_REPORTED_ERRORS rejected rows, row numbers counting the header as 1. */
  errors: RowError[];
}

export class PassportListParser {
  readonly counts: PassportListCounts = { rows: 0, accepted: 0, rejected: 0, errors: [] };
  private headerSeen = false;
  /** The unfinished line at the end of the last chunk. */
  private carry: Buffer = Buffer.alloc(0);
  /** Inside a line longer than MAX_LINE_BYTES: its start is kept, the rest skipped to its end. */
  private skipping = false;

  /** Parses the chunk's whole lines; returns their good rows as COPY text (`SSSSNNNNNN\n` each). */
  push(chunk: Uint8Array): Buffer {
    let input = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.carry.length > 0) {
      input = Buffer.concat([this.carry, input]);
      this.carry = Buffer.alloc(0);
    }
    // Output is never longer than the input: every good line is 11 bytes in and 11 out.
    const out = Buffer.allocUnsafe(input.length);
    let written = 0;
    let start = 0;
    const length = input.length;
    while (start < length) {
      const nl = input.indexOf(NL, start);
      if (nl === -1) {
        if (!this.skipping) {
          if (length - start > MAX_LINE_BYTES) {
            this.skipping = true;
            this.longLine(input.toString('utf8', start, start + MAX_SHOWN_CHARS));
          } else {
            this.carry = Buffer.from(input.subarray(start));
          }
        }
        break;
      }
      if (this.skipping) {
        this.skipping = false;
      } else {
        const end = nl > start && input[nl - 1] === CR ? nl - 1 : nl;
        written = this.line(input, start, Math.min(end, start + MAX_LINE_BYTES), out, written);
      }
      start = nl + 1;
    }
    return out.subarray(0, written);
  }

  /** The last line when the file does not end with a line break; throws when there was no header. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    let out = Buffer.alloc(0);
    if (rest.length > 0 && !this.skipping) {
      const end = rest[rest.length - 1] === CR ? rest.length - 1 : rest.length;
      const buffer = Buffer.allocUnsafe(rest.length);
      out = buffer.subarray(0, this.line(rest, 0, end, buffer, 0));
    }
    if (!this.headerSeen) {
      throw new PassportListError('Файл пуст: нет ни заголовка, ни строк');
    }
    return out;
  }

  /** One line (without its break): writes a good row at `written`, returns the new length. */
  private line(input: Buffer, start: number, end: number, out: Buffer, written: number): number {
    if (!this.headerSeen) {
      this.header(input.toString('utf8', start, end));
      return written;
    }
    this.counts.rows++;
    if (
      end - start === 11 &&
      input[start + 4] === COMMA &&
      isDigit(input[start]!) &&
      isDigit(input[start + 1]!) &&
      isDigit(input[start + 2]!) &&
      isDigit(input[start + 3]!) &&
      isDigit(input[start + 5]!) &&
      isDigit(input[start + 6]!) &&
      isDigit(input[start + 7]!) &&
      isDigit(input[start + 8]!) &&
      isDigit(input[start + 9]!) &&
      isDigit(input[start + 10]!)
    ) {
      input.copy(out, written, start, start + 4);
      input.copy(out, written + 4, start + 5, start + 11);
      out[written + 10] = NL;
      this.counts.accepted++;
      return written + 11;
    }
    this.reject(input.toString('utf8', start, Math.min(end, start + MAX_SHOWN_CHARS * 4)));
    return written;
  }

  /** A line with no break within MAX_LINE_BYTES (binary data, another format): malformed. */
  private longLine(text: string) {
    if (!this.headerSeen) {
      this.header(text);
      return;
    }
    this.counts.rows++;
    this.reject(text);
  }

  private header(text: string) {
    const header = text
      .replace(/^\uFEFF/, '')
      .trim()
      .replace(/\s+/g, '')
      .toUpperCase();
    if (header !== PASSPORT_LIST_HEADER) {
      const shown = text.replace(/^\uFEFF/, '').slice(0, MAX_SHOWN_CHARS);
      throw new PassportListError(
        `Это не перечень недействительных паспортов МВД: первая строка должна быть «${PASSPORT_LIST_HEADER}»${
          shown.trim() ? `, в файле — «${printable(shown)}»` : ''
        }`,
      );
    }
    this.headerSeen = true;
  }

  private reject(text: string) {
    this.counts.rejected++;
    if (this.counts.errors.length >= MAX_REPORTED_ERRORS) {
      return;
    }
    const row = this.counts.rows + 1;
    const message = text.trim()
      ? `ожидаются серия (4 цифры), запятая и номер (6 цифр), в строке — «${printable(text.slice(0, MAX_SHOWN_CHARS))}»`
      : 'пустая строка';
    this.counts.errors.push({ row, message });
  }
}

/** Control characters and undecodable bytes shown as «?», so a binary line reads as text. */
const printable = (text: string) =>
  [...text].map((char) => (char < ' ' || char === '\u007f' || char === '\ufffd' ? '?' : char)).join('');

/** `SSSS NNNNNN` of a 10-digit key, as people write a passport. */
export const formatPassport = (key: string) => `${key.slice(0, 4)} ${key.slice(4)}`;
