import type { UploadKind } from '@pledgewatch/contract';
import { itemsUpload } from './items-upload.ts';
import { pledgeEventsUpload } from './pledge-events-upload.ts';
import type { UploadKindHandler } from './upload-kind.ts';

/** Every upload kind the pipeline knows: a new kind in the contract must add its handler here. */
const HANDLERS: Record<UploadKind, UploadKindHandler> = {
  items: itemsUpload,
  pledge_events: pledgeEventsUpload,
};

export function uploadKindHandler(kind: UploadKind): UploadKindHandler {
  return HANDLERS[kind];
}
