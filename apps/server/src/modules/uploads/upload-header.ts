import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { headerMapOf, withFields } from './header/column-mapping.ts';
import {
  type FileColumn,
  findHeaderRow,
  HEADER_LOOKAHEAD_ROWS,
  headerSignature,
  isBlank,
  type MappingProposal,
  proposeMapping,
  SAMPLES_PER_COLUMN,
} from './header/find-header.ts';
import type { UploadKindHandler } from './kinds/upload-kind.ts';
import { openRowSource } from './reader/open-row-source.ts';
import { type FileRow, MAX_COLUMNS, type RowSource } from './reader/row-source.ts';
import { isUploadFileError, UploadFileError } from './reader/upload-file-error.ts';
import { getRememberedMapping, type UploadDetails } from './uploads.queries.ts';

export interface PipelineContext {
  db: pg.Pool;
  config: Pick<AppConfig, 'dataDir' | 'uploadMaxUnzippedBytes'> & Partial<Pick<AppConfig, 'jobsDbNice'>>;
}

/** The upload's file opened for reading; `backgroundNice` for a job's read (see openRowSource). */
export const openUploadFile = (
  config: PipelineContext['config'],
  filePath: string,
  sheet?: number,
  backgroundNice = 0,
) => openRowSource(filePath, { maxUnzippedBytes: config.uploadMaxUnzippedBytes, sheet, backgroundNice });

/** The header row found in a file, the proposed use of its columns, and the rows after it. */
export interface HeaderRead {
  /** The header's row number as the file numbers it. */
  rowNumber: number;
  /** Whether the header was recognised by its names (false: the row above the data, to be mapped). */
  recognised: boolean;
  proposal: MappingProposal;
  signature: string;
  /** The rows after the header: those read while looking for it, then the rest of the file. */
  rest: AsyncGenerator<FileRow>;
}

async function* chain(first: readonly FileRow[], then: AsyncGenerator<FileRow>): AsyncGenerator<FileRow> {
  yield* first;
  yield* then;
}

/**
 * Reads the file's first rows, finds the header among them (header/find-header.ts) and proposes a
 * field for each column; throws UploadFileError with the reason for the user.
 */
export async function readHeader(
  handler: UploadKindHandler,
  rows: AsyncGenerator<FileRow>,
): Promise<HeaderRead> {
  const read: FileRow[] = [];
  // next() rather than for-await: leaving a for-await loop would close the generator for the caller.
  let next = await rows.next();
  for (; !next.done; next = await rows.next()) {
    read.push(next.value);
    if (next.value.rowNumber >= HEADER_LOOKAHEAD_ROWS) {
      break;
    }
  }
  const found = findHeaderRow(handler, read);
  if (!found.ok) {
    throw new UploadFileError(found.message);
  }
  const header = read[found.index]!;
  if (header.extraCells) {
    throw new UploadFileError(
      `В строке заголовков больше ${MAX_COLUMNS} столбцов (в шаблоне их ${handler.columns.length}): ` +
        'удалите лишние столбцы или скачайте шаблон',
    );
  }
  const after = read.slice(found.index + 1);
  // Sample values come from the first rows of data, read on a little when the header is low.
  const filled = () => after.filter((row) => !isBlank(row.values)).length;
  if (!next.done) {
    while (filled() < SAMPLES_PER_COLUMN) {
      next = await rows.next();
      if (next.done) {
        break;
      }
      after.push(next.value);
    }
  }
  const samples = after
    .filter((row) => !isBlank(row.values))
    .slice(0, SAMPLES_PER_COLUMN * 3)
    .map((row) => row.values);
  const proposal = proposeMapping(handler, header.values, samples);
  return {
    rowNumber: header.rowNumber,
    recognised: found.recognised,
    proposal,
    signature: headerSignature(handler.kind, header.values, proposal.columns.length),
    rest: chain(after, rows),
  };
}

/** What the upload keeps of its header: the row, the columns and how they are used. */
export function headerDetails(
  read: Pick<HeaderRead, 'rowNumber' | 'recognised' | 'signature'>,
  handler: UploadKindHandler,
  columns: FileColumn[],
  mappingSource: 'auto' | 'remembered' | 'chosen' = 'auto',
): UploadDetails {
  const header = headerMapOf(handler, columns);
  return {
    headerRow: read.rowNumber,
    headerRecognised: read.recognised,
    signature: read.signature,
    fileColumns: columns,
    mappingSource,
    mappingQuestion: null,
    columns: header.columns,
    ignoredColumns: header.ignored,
  };
}

/** What reading the top of a file told: its format, sheets, header and proposed columns. */
export interface InspectedFile {
  format: RowSource['format'];
  encoding: string | null;
  delimiter: string | null;
  sheets: { index: number; name: string }[];
  sheet: number | null;
  headerRow: number;
  headerRecognised: boolean;
  proposal: MappingProposal;
  signature: string;
}

/** Workbook sheets tried for a header when none is chosen. */
const SHEETS_TRIED = 10;

/**
 * Opens the file and finds its header, for the synchronous answer to an upload: in a workbook, on the
 * chosen sheet, or on the first sheet that has one (the first sheet's reason when none has).
 */
export async function inspectUploadFile(
  context: PipelineContext,
  handler: UploadKindHandler,
  filePath: string,
  options: { sheet?: number } = {},
): Promise<InspectedFile> {
  let firstError: unknown = null;
  for (let sheet = options.sheet ?? 0; ; sheet++) {
    const source = await openUploadFile(context.config, filePath, sheet);
    try {
      const header = await readHeader(handler, source.rows());
      return {
        format: source.format,
        encoding: source.encoding,
        delimiter: source.delimiter,
        sheets: source.sheets ?? [],
        sheet: source.sheets ? sheet : null,
        headerRow: header.rowNumber,
        headerRecognised: header.recognised,
        proposal: header.proposal,
        signature: header.signature,
      };
    } catch (error) {
      firstError ??= error;
      const more = source.sheets && sheet + 1 < Math.min(source.sheets.length, SHEETS_TRIED);
      if (options.sheet !== undefined || !isUploadFileError(error) || !more) {
        throw firstError;
      }
    } finally {
      await source.close();
    }
  }
}

/**
 * The upload's details from what its file's top told: the columns as remembered for this header
 * when the organisation mapped one like it before, else as proposed, with the question to ask when
 * the proposal is unsure.
 */
export async function decideColumns(
  db: pg.PoolClient | pg.Pool,
  options: { organisationId: string; handler: UploadKindHandler; inspected: InspectedFile },
): Promise<UploadDetails> {
  const { handler, inspected } = options;
  const facts: UploadDetails = {
    format: inspected.format,
    encoding: inspected.encoding,
    delimiter: inspected.delimiter,
    sheets: inspected.sheets,
    sheet: inspected.sheet,
  };
  const read = {
    rowNumber: inspected.headerRow,
    recognised: inspected.headerRecognised,
    signature: inspected.signature,
  };
  const remembered = await getRememberedMapping(db, {
    organisationId: options.organisationId,
    kind: handler.kind,
    signature: inspected.signature,
  });
  const columns = inspected.proposal.columns;
  if (remembered && remembered.length === columns.length) {
    const fields = remembered.map((field) =>
      field !== null && handler.columns.some((column) => column.field === field) ? field : null,
    );
    if (handler.keyFields.some((field) => fields.includes(field))) {
      return {
        ...facts,
        ...headerDetails(read, handler, withFields(columns, fields, 'remembered'), 'remembered'),
      };
    }
  }
  return {
    ...facts,
    ...headerDetails(read, handler, columns),
    mappingQuestion: inspected.proposal.question,
  };
}
