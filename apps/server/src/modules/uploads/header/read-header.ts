// Finding the header at the top of a file (find-header.ts) while its rows stream by; no database, so
// it runs in the reader thread as well (the validation) as on the API's thread (the upload's answer).
import type { UploadRowRules } from '../kinds/upload-kind.ts';
import { type FileRow, MAX_COLUMNS } from '../reader/row-source.ts';
import { UploadFileError } from '../reader/upload-file-error.ts';
import {
  findHeaderRow,
  HEADER_LOOKAHEAD_ROWS,
  headerSignature,
  isBlank,
  type MappingProposal,
  proposeMapping,
  SAMPLES_PER_COLUMN,
} from './find-header.ts';

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
  handler: UploadRowRules,
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
