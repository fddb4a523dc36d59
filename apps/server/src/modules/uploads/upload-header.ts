import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { headerMapOf, withFields } from './header/column-mapping.ts';
import type { FileColumn, MappingProposal } from './header/find-header.ts';
import { type HeaderRead, readHeader } from './header/read-header.ts';
import type { UploadKindHandler } from './kinds/upload-kind.ts';
import { openCheckedRows, openRowSource } from './reader/open-row-source.ts';
import type { RowSource } from './reader/row-source.ts';
import { isUploadFileError } from './reader/upload-file-error.ts';
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

/**
 * The upload's file opened for its validation (a job's read, at `backgroundNice`): the header found
 * and the rows checked by the kind's rules in the reader thread (see openCheckedRows).
 */
export const openUploadChecks = (
  config: PipelineContext['config'],
  filePath: string,
  options: { sheet?: number; backgroundNice: number; handler: UploadKindHandler },
) =>
  openCheckedRows(filePath, {
    maxUnzippedBytes: config.uploadMaxUnzippedBytes,
    sheet: options.sheet,
    backgroundNice: options.backgroundNice,
    rules: options.handler.rowRulesModule,
  });

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
