import {
  UPLOAD_STATUS_LABELS,
  type Upload,
  type UploadMappingBody,
  type UploadStatus,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { checkMapping, withFields } from './header/column-mapping.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';
import { uploadKindHandler } from './kinds/upload-kinds.ts';
import { isUploadFileError } from './reader/upload-file-error.ts';
import { decideColumns, headerDetails, type InspectedFile, inspectUploadFile } from './upload-header.ts';
import { uploadFilePath } from './upload-pipeline.ts';
import {
  deleteStagedRows,
  deleteUploadErrors,
  getUpload as getUploadRow,
  rememberMapping,
  type UploadDetails,
  type UploadRow,
  updateUpload,
} from './uploads.queries.ts';
import { requireUpload, toUpload } from './uploads.service.ts';

type UploadConfig = Pick<AppConfig, 'dataDir' | 'uploadMaxUnzippedBytes'>;

/** Statuses in which the columns or the sheet can still change: nothing has been imported. */
const REMAPPABLE: UploadStatus[] = ['needs_mapping', 'validated'];

/**
 * Puts an upload back to validation with new details (a mapping, a sheet): drops what the last
 * validation staged, resets the counts and queues the job, or leaves it waiting for a mapping.
 * Returns false when the upload left the statuses that allow it meanwhile.
 */
async function revalidate(
  tx: pg.PoolClient,
  queue: JobQueue,
  upload: UploadRow,
  details: UploadDetails,
): Promise<boolean> {
  const waits = Boolean(details.mappingQuestion);
  const moved = await updateUpload(
    tx,
    upload.id,
    {
      status: waits ? 'needs_mapping' : 'received',
      rows_total: 0,
      rows_processed: 0,
      rows_accepted: 0,
      rows_duplicate: 0,
      rows_rejected: 0,
      rows_restored: 0,
      error_message: null,
    },
    { details: { ...details, percent: 0, staged: 0, skipped: 0, skippedRows: [] }, fromStatuses: REMAPPABLE },
  );
  if (!moved) {
    return false;
  }
  await deleteStagedRows(tx, uploadKindHandler(upload.kind).stagingTable, upload.id);
  await deleteUploadErrors(tx, upload.id);
  if (!waits) {
    await queue.send(validateUploadJob, { uploadId: upload.id }, { db: tx });
  }
  return true;
}

const wrongStatus = (upload: UploadRow, action: string) =>
  new AppError('UPLOAD_WRONG_STATUS', {
    message: `${action} можно, пока загрузка не подтверждена; сейчас: «${UPLOAD_STATUS_LABELS[upload.status]}»`,
  });

/**
 * The user's mapping of the file's columns (the mapping step, or a change from the preview):
 * checked against the file's columns, remembered for the organisation's next file with this header,
 * and validation runs again with it. A refused mapping changes nothing.
 */
export async function setUploadMapping(options: {
  db: pg.Pool;
  queue: JobQueue;
  auth: AuthContext;
  uploadId: string;
  body: UploadMappingBody;
}): Promise<Upload> {
  return withTransaction(options.db, async (tx) => {
    const upload = await getUploadRow(tx, options.uploadId, options.auth.organisationId, { forUpdate: true });
    if (!upload) {
      throw new AppError('UPLOAD_NOT_FOUND');
    }
    if (!REMAPPABLE.includes(upload.status)) {
      throw wrongStatus(upload, 'Сопоставить столбцы');
    }
    const handler = uploadKindHandler(upload.kind);
    const columns = upload.details.fileColumns;
    if (!columns || upload.details.headerRow === undefined || !upload.details.signature) {
      throw new AppError('UPLOAD_MAPPING_INVALID', {
        message: 'Столбцы этого файла не прочитаны: загрузите файл ещё раз',
      });
    }
    const checked = checkMapping(handler, columns, options.body.columns);
    if (!checked.ok) {
      throw new AppError('UPLOAD_MAPPING_INVALID', { message: checked.message });
    }
    const read = {
      rowNumber: upload.details.headerRow,
      recognised: upload.details.headerRecognised ?? true,
      signature: upload.details.signature,
    };
    await revalidate(
      tx,
      options.queue,
      upload,
      headerDetails(read, handler, withFields(columns, checked.fields, 'chosen'), 'chosen'),
    );
    await rememberMapping(tx, {
      organisationId: upload.organisation_id,
      kind: upload.kind,
      signature: upload.details.signature,
      fields: checked.fields,
      userId: options.auth.userId,
    });
    return toUpload((await getUploadRow(tx, upload.id))!);
  });
}

/** Reads another sheet of the workbook: its header is found afresh and validation runs again. */
export async function selectUploadSheet(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: UploadConfig;
  auth: AuthContext;
  uploadId: string;
  sheet: number;
}): Promise<Upload> {
  const { db, config, auth } = options;
  const upload = await requireUpload(db, auth, options.uploadId);
  if (!REMAPPABLE.includes(upload.status)) {
    throw wrongStatus(upload, 'Выбрать лист');
  }
  const sheets = upload.details.sheets ?? [];
  if (upload.details.format !== 'xlsx' || options.sheet >= sheets.length) {
    throw new AppError('UPLOAD_MAPPING_INVALID', {
      message:
        upload.details.format !== 'xlsx'
          ? 'В файле CSV один лист: выбрать другой нельзя'
          : `В книге нет листа № ${options.sheet + 1}: в ней ${sheets.length} лист(ов)`,
    });
  }
  const handler = uploadKindHandler(upload.kind);
  let inspected: InspectedFile;
  try {
    inspected = await inspectUploadFile({ db, config }, handler, uploadFilePath(config, upload.id), {
      sheet: options.sheet,
    });
  } catch (error) {
    if (isUploadFileError(error)) {
      throw new AppError('UPLOAD_INVALID_FILE', {
        message: `Лист «${sheets[options.sheet]!.name}»: ${error.message}`,
      });
    }
    throw error;
  }
  return withTransaction(db, async (tx) => {
    const details = await decideColumns(tx, { organisationId: auth.organisationId, handler, inspected });
    if (!(await revalidate(tx, options.queue, upload, details))) {
      throw wrongStatus((await getUploadRow(tx, upload.id))!, 'Выбрать лист');
    }
    return toUpload((await getUploadRow(tx, upload.id))!);
  });
}
