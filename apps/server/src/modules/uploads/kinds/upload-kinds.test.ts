import { describe, expect, it } from 'vitest';
import { pledgeEventsUpload } from '../../pledges/index.ts';
import { itemsUpload } from './items-upload.ts';
import { registerUploadKind, uploadKindHandler } from './upload-kinds.ts';

describe('upload kind registry', () => {
  it('knows its own portfolio kind, and another module’s kind only once it is registered', async () => {
    expect(uploadKindHandler('items')).toBe(itemsUpload);
    expect(() => uploadKindHandler('pledge_events')).toThrow('upload kind pledge_events is not registered');
    // The composition roots (buildApp, the worker) register the pledges module's kind in every process.
    const { registerModules } = await import('../../../wiring.ts');
    registerModules();
    expect(uploadKindHandler('pledge_events')).toBe(pledgeEventsUpload);
  });

  it('takes a kind by its name, replacing an earlier registration', () => {
    const replacement = { ...pledgeEventsUpload };
    registerUploadKind(replacement);
    expect(uploadKindHandler('pledge_events')).toBe(replacement);
    registerUploadKind(pledgeEventsUpload);
  });
});
