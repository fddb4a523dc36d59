import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import {
  isXmlLimitError,
  type SafeXmlHandlers,
  type SafeXmlLimits,
  SafeXmlParser,
  XmlBudget,
} from '../../../lib/xml/safe-xml.ts';
import { type FileRow, MAX_CELL_CHARS, MAX_COLUMNS, type RowSource } from './row-source.ts';
import { UploadFileError } from './upload-file-error.ts';
import { XmlTextCap } from './xml-text-cap.ts';

export interface XlsxLimits {
  /** Total unpacked size of all entries. */
  maxUnzippedBytes: number;
  maxEntries?: number;
  /** Shared strings are held in memory: their XML may not exceed this. */
  maxSharedStringsBytes?: number;
  /** …nor their number this (each is cut at MAX_CELL_CHARS + 1 characters). */
  maxSharedStrings?: number;
  /** The 0-based sheet of the workbook to read (default: the first). */
  sheet?: number;
}

/** Sheets a workbook lists, at most this many (names only: a sheet is read when chosen). */
const MAX_SHEETS = 100;
const SHEET_NAME_CHARS = 100;

const TOO_MANY_STRINGS_MESSAGE =
  'В файле XLSX слишком много разных строк: сохраните его как CSV и загрузите ещё раз';

const BOMB_MESSAGE =
  'Файл XLSX распаковывается в недопустимо большой объём (похоже на «zip-бомбу»): загрузка отклонена';
const NOT_XLSX_MESSAGE = 'Файл — ZIP-архив, но не книга Excel (XLSX): загрузите файл CSV или XLSX';
// Real sheets compress 5–30 times; deflate cannot exceed ~1030.
const MAX_RATIO = 400;
const RATIO_FLOOR_BYTES = 32 * 1024 * 1024;

/**
 * Caps of every XML part read (lib/xml/safe-xml.ts), checked as it streams. Excel's deepest parts
 * nest about 15 elements; a row of 16 384 filled cells holds about 50 000.
 */
const MAX_XML_DEPTH = 64;
/** Elements of one row, or of one shared string: 10 million `<t>` in one cell is not a cell. */
const MAX_ROW_ELEMENTS = 100_000;
/** Elements of the sheet: about a million rows of 64 cells of three elements each. */
const MAX_SHEET_ELEMENTS = 200_000_000;
/** Elements of the workbook and its relationships. */
const MAX_SMALL_PART_ELEMENTS = 100_000;
const XML_LABEL = 'Файл XLSX отклонён';
const ROW_ELEMENTS_MESSAGE = `${XML_LABEL}: в одной строке листа больше ${MAX_ROW_ELEMENTS} элементов XML`;

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    );
  });
}

function listEntries(zip: yauzl.ZipFile, maxEntries: number): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    if (zip.entryCount > maxEntries) {
      reject(
        new UploadFileError(`В архиве XLSX слишком много файлов (${zip.entryCount}): загрузка отклонена`),
      );
      return;
    }
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

/** A guarded parser of one part: its own element cap, the archive's unpacked-size budget. */
function partParser(budget: XmlBudget, maxElements: number, handlers: SafeXmlHandlers): SafeXmlParser {
  const cap = new XmlTextCap(MAX_CELL_CHARS);
  const limits: SafeXmlLimits = { maxDepth: MAX_XML_DEPTH, maxElements, maxBytes: budget.maxBytes };
  return new SafeXmlParser(limits, handlers, {
    label: XML_LABEL,
    budget,
    filter: (text) => cap.filter(text),
  });
}

/** The reader's own refusals as they are; a cap of the XML guard as the user's reason. */
function asFileError(error: unknown): UploadFileError | null {
  if (error instanceof UploadFileError) {
    return error;
  }
  if (isXmlLimitError(error)) {
    return new UploadFileError(error.reason === 'size' ? BOMB_MESSAGE : error.message);
  }
  if (error instanceof Error && /too many bytes|uncompressed size/i.test(error.message)) {
    return new UploadFileError(BOMB_MESSAGE);
  }
  return null;
}

/** Reads a small XML entry through the guarded parser (workbook, relationships, shared strings). */
async function parseEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  budget: XmlBudget,
  maxElements: number,
  handlers: SafeXmlHandlers,
): Promise<void> {
  const parser = partParser(budget, maxElements, handlers);
  const stream = await openEntry(zip, entry);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parser.write(chunk);
  }
  parser.close();
}

/**
 * "BC12" → 54 (0-based column index); MAX_COLUMNS for any column beyond the ones read, so a
 * reference like "ZZZZZZ2" never becomes an index that rows are padded up to.
 */
function columnIndex(reference: string): number {
  let index = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code < 65 || code > 90) {
      break;
    }
    index = index * 26 + (code - 64);
    if (index > MAX_COLUMNS) {
      return MAX_COLUMNS;
    }
  }
  return index - 1;
}

/** Excel's last row; a larger or malformed `r` is a damaged (or hostile) file. */
const MAX_ROW_NUMBER = 1_048_576;

/** Excel keeps long numbers as floats ("1.64301E+14"); a document number must come back whole. */
function numberText(raw: string): string {
  if (!/[eE]/.test(raw)) {
    return raw;
  }
  const value = Number(raw);
  return Number.isFinite(value) && Number.isInteger(value) ? BigInt(value).toString() : raw;
}

type Entries = Map<string, yauzl.Entry>;

/** Refuses an archive whose entries together, or one by its ratio, unpack beyond the limits. */
function checkUnpackedSizes(entries: Entries, limits: XlsxLimits): void {
  let total = 0;
  for (const entry of entries.values()) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (
      total > limits.maxUnzippedBytes ||
      (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > MAX_RATIO)
    ) {
      throw new UploadFileError(BOMB_MESSAGE);
    }
  }
}

/** The workbook's sheets in their order: name and relationship id. */
async function readSheetList(
  zip: yauzl.ZipFile,
  workbook: yauzl.Entry,
  budget: XmlBudget,
): Promise<{ name: string; rel: string }[]> {
  const sheets: { name: string; rel: string }[] = [];
  await parseEntry(zip, workbook, budget, MAX_SMALL_PART_ELEMENTS, {
    opentag: (tag) => {
      if (sheets.length < MAX_SHEETS && (tag.name === 'sheet' || tag.name.endsWith(':sheet'))) {
        const attributes = tag.attributes;
        sheets.push({
          name: (attributes.name ?? '').replaceAll('\0', '').slice(0, SHEET_NAME_CHARS),
          rel: attributes['r:id'] ?? Object.entries(attributes).find(([k]) => k.endsWith(':id'))?.[1] ?? '',
        });
      }
    },
  });
  return sheets;
}

/** The chosen sheet's part, through the workbook's relationships (the first sheet has a default). */
async function findSheetEntry(
  zip: yauzl.ZipFile,
  entries: Entries,
  budget: XmlBudget,
  sheetIndex: number,
  sheetRel: string | undefined,
): Promise<yauzl.Entry> {
  let sheetPath = sheetIndex === 0 ? 'xl/worksheets/sheet1.xml' : '';
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  if (rels && sheetRel) {
    await parseEntry(zip, rels, budget, MAX_SMALL_PART_ELEMENTS, {
      opentag: (tag) => {
        const attributes = tag.attributes;
        if (tag.name === 'Relationship' && attributes.Id === sheetRel && attributes.Target) {
          const target = attributes.Target;
          sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
        }
      },
    });
  }
  const sheet = entries.get(sheetPath);
  if (!sheet) {
    throw new UploadFileError('В книге XLSX нет листа с данными');
  }
  return sheet;
}

/** The shared-strings table (the only part held in memory), each string cut past MAX_CELL_CHARS. */
async function readSharedStrings(
  zip: yauzl.ZipFile,
  entries: Entries,
  budget: XmlBudget,
  limits: XlsxLimits,
): Promise<string[]> {
  const shared: string[] = [];
  const sharedEntry = entries.get('xl/sharedStrings.xml');
  if (!sharedEntry) {
    return shared;
  }
  if (sharedEntry.uncompressedSize > (limits.maxSharedStringsBytes ?? 256 * 1024 * 1024)) {
    throw new UploadFileError(TOO_MANY_STRINGS_MESSAGE);
  }
  const maxStrings = limits.maxSharedStrings ?? 5_000_000;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  let stringElements = 0;
  await parseEntry(zip, sharedEntry, budget, (maxStrings + 1) * 20, {
    opentag: (tag) => {
      if (tag.name === 'si') {
        current = '';
        stringElements = 0;
      } else if (++stringElements > MAX_ROW_ELEMENTS) {
        throw new UploadFileError(ROW_ELEMENTS_MESSAGE);
      } else if (tag.name === 'rPh') {
        phonetic++;
      } else if (tag.name === 't' && phonetic === 0) {
        inText = true;
      }
    },
    text: (text) => {
      // Kept to one character over the cap: enough for the row to be refused as too long.
      if (inText && current !== null && current.length <= MAX_CELL_CHARS) {
        current += text.slice(0, MAX_CELL_CHARS + 1 - current.length);
      }
    },
    closetag: (tag) => {
      if (tag.name === 'si') {
        if (shared.length >= maxStrings) {
          throw new UploadFileError(TOO_MANY_STRINGS_MESSAGE);
        }
        shared.push(current ?? '');
        current = null;
      } else if (tag.name === 'rPh') {
        phonetic--;
      } else if (tag.name === 't') {
        inText = false;
      }
    },
  });
  return shared;
}

/** A cell's text as the user sees it: shared strings resolved, long numbers whole, booleans in Russian. */
function cellValue(cellType: string, cellText: string, shared: string[]): string {
  if (cellType === 's') {
    return shared[Number(cellText)] ?? '';
  }
  if (cellType === 'n') {
    return numberText(cellText);
  }
  if (cellType === 'b') {
    return cellText === '1' ? 'ИСТИНА' : 'ЛОЖЬ';
  }
  return cellText;
}

/** The sheet's parser handlers: each finished row is pushed onto `ready`. */
function sheetRowHandlers(shared: string[], ready: FileRow[]): SafeXmlHandlers {
  let rowNumber = 0;
  let values: string[] = [];
  let longCells: Map<number, number> | null = null;
  let extraCells = 0;
  let cellColumn = 0;
  let cellType = 'n';
  let cellText = '';
  let collecting = false;
  // Elements since the last row opened: within a row's cells, or between rows.
  let rowElements = 0;
  const endCell = () => {
    let value = cellValue(cellType, cellText, shared);
    if (cellColumn >= MAX_COLUMNS) {
      if (value.trim() !== '') {
        extraCells++;
      }
      return;
    }
    if (value.length > MAX_CELL_CHARS) {
      longCells ??= new Map();
      longCells.set(cellColumn, value.length);
      value = value.slice(0, MAX_CELL_CHARS);
    }
    while (values.length < cellColumn) {
      values.push('');
    }
    values[cellColumn] = value;
  };
  return {
    opentag: (tag) => {
      const attributes = tag.attributes;
      if (++rowElements > MAX_ROW_ELEMENTS) {
        throw new UploadFileError(ROW_ELEMENTS_MESSAGE);
      }
      switch (tag.name) {
        case 'row':
          rowElements = 0;
          rowNumber = attributes.r ? Number(attributes.r) : rowNumber + 1;
          if (!Number.isInteger(rowNumber) || rowNumber < 1 || rowNumber > MAX_ROW_NUMBER) {
            throw new UploadFileError('Файл XLSX повреждён: неверный номер строки в листе');
          }
          values = [];
          longCells = null;
          extraCells = 0;
          break;
        case 'c':
          cellColumn = attributes.r ? columnIndex(attributes.r) : values.length;
          if (cellColumn < 0) {
            // A reference without column letters: the next column, as Excel reads it.
            cellColumn = values.length;
          }
          cellType = attributes.t ?? 'n';
          cellText = '';
          break;
        case 'v':
        case 't':
          collecting = true;
          break;
      }
    },
    text: (text) => {
      if (collecting && cellText.length <= MAX_CELL_CHARS) {
        cellText += text.slice(0, MAX_CELL_CHARS + 1 - cellText.length);
      }
    },
    closetag: (tag) => {
      switch (tag.name) {
        case 'v':
        case 't':
          collecting = false;
          break;
        case 'c':
          endCell();
          break;
        case 'row':
          ready.push({ rowNumber, values, longCells, extraCells });
          break;
      }
    },
  };
}

/**
 * A streaming XLSX reader: the zip directory is checked first (entry count, declared sizes, ratios;
 * yauzl also stops an entry that inflates beyond its declared size), then the chosen sheet (the first
 * by default) is parsed row by row. Only the shared-strings table is held in memory, within its own limit.
 */
export async function openXlsx(filePath: string, limits: XlsxLimits): Promise<RowSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(filePath);
  } catch {
    throw new UploadFileError('Файл XLSX повреждён: не удалось открыть архив');
  }
  try {
    const entries = await listEntries(zip, limits.maxEntries ?? 2000);
    checkUnpackedSizes(entries, limits);
    const workbook = entries.get('xl/workbook.xml');
    if (!workbook) {
      throw new UploadFileError(NOT_XLSX_MESSAGE);
    }
    // Every part read counts against the archive's unpacked size, whatever its declared size.
    const budget = new XmlBudget(limits.maxUnzippedBytes);
    const sheets = await readSheetList(zip, workbook, budget);
    const sheetIndex = limits.sheet ?? 0;
    if (sheetIndex > 0 && sheetIndex >= sheets.length) {
      throw new UploadFileError(
        `В книге XLSX нет листа № ${sheetIndex + 1}: в ней ${sheets.length} лист(ов)`,
      );
    }
    const sheet = await findSheetEntry(zip, entries, budget, sheetIndex, sheets[sheetIndex]?.rel);
    const shared = await readSharedStrings(zip, entries, budget, limits);

    let consumed = 0;
    let sheetStream: Readable | null = null;
    async function* rows(): AsyncGenerator<FileRow> {
      const ready: FileRow[] = [];
      const parser = partParser(budget, MAX_SHEET_ELEMENTS, sheetRowHandlers(shared, ready));
      sheetStream = await openEntry(zip, sheet);
      sheetStream.on('data', (chunk: Buffer) => {
        consumed += chunk.length;
      });
      try {
        for await (const chunk of sheetStream as AsyncIterable<Buffer>) {
          parser.write(chunk);
          if (ready.length > 0) {
            yield* ready.splice(0);
          }
        }
        parser.close();
      } catch (error) {
        throw asFileError(error) ?? new UploadFileError('Файл XLSX повреждён: не удалось прочитать лист');
      }
      yield* ready.splice(0);
    }

    return {
      format: 'xlsx',
      encoding: null,
      delimiter: null,
      sheets: sheets.map((entry, index) => ({ index, name: entry.name || `Лист ${index + 1}` })),
      sheet: sheetIndex,
      rows,
      // Progress counts unpacked sheet bytes against the sheet's unpacked size.
      bytesRead: () => consumed,
      totalBytes: sheet.uncompressedSize,
      close: async () => {
        (sheetStream as Readable | null)?.destroy();
        zip.close();
      },
    };
  } catch (error) {
    zip.close();
    throw asFileError(error) ?? new UploadFileError('Файл XLSX повреждён или имеет неизвестную структуру');
  }
}
