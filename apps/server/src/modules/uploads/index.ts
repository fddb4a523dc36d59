/**
 * The uploads module's public entry: the upload kind contract and registry (other modules provide
 * kinds, see wiring.ts), starting an upload, and the file readers other modules reuse.
 */
export { arrayLiteral } from './copy-text.ts';
export { CONTRACT_NUMBER_SYNONYMS, VIN_SYNONYMS } from './header/column-synonyms.ts';
export { normaliseHeader } from './header/header-names.ts';
export { importUploadJob } from './jobs/import-upload.job.ts';
export { validateUploadJob } from './jobs/validate-upload.job.ts';
export type {
  RowProblem,
  UploadColumn,
  UploadKindHandler,
} from './kinds/upload-kind.ts';
export { registerUploadKind } from './kinds/upload-kinds.ts';
export { openRowSource } from './reader/open-row-source.ts';
export { isUploadFileError, UploadFileError } from './reader/upload-file-error.ts';
export { contentTypeOf } from './upload-files.ts';
export { uploadRoutes } from './uploads.routes.ts';
export { createUpload, uploadTemplateFile } from './uploads.service.ts';
