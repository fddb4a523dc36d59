import type { UploadKind } from '@pledgewatch/contract';
import { itemsUpload } from './items-upload.ts';
import type { UploadKindHandler } from './upload-kind.ts';

/**
 * The upload kinds the pipeline knows. Uploads owns the portfolio kind; other modules register theirs
 * (see apps/server/src/wiring.ts), so this module never imports the modules that use it.
 */
const HANDLERS = new Map<UploadKind, UploadKindHandler>([['items', itemsUpload]]);

export function registerUploadKind(handler: UploadKindHandler): void {
  HANDLERS.set(handler.kind, handler);
}

export function uploadKindHandler(kind: UploadKind): UploadKindHandler {
  const handler = HANDLERS.get(kind);
  if (!handler) {
    throw new Error(`upload kind ${kind} is not registered`);
  }
  return handler;
}
