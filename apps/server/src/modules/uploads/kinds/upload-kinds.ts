import type { UploadKind } from '@pledgewatch/contract';
import { AppError } from '../../../lib/app-error.ts';
import { itemsUpload } from './items-upload.ts';
import { pledgeEventsUpload } from './pledge-events-upload.ts';
import type { UploadKindHandler } from './upload-kind.ts';

/** Every upload kind the pipeline knows; issue 6 adds pledge events here. */
const HANDLERS: Partial<Record<UploadKind, UploadKindHandler>> = {
  items: itemsUpload,
  pledge_events: pledgeEventsUpload,
};

export function uploadKindHandler(kind: UploadKind): UploadKindHandler {
  const handler = HANDLERS[kind];
  if (!handler) {
    throw new AppError('NOT_IMPLEMENTED', { message: 'Загрузка файлов этого вида ещё не доступна' });
  }
  return handler;
}
