/**
 * Connects modules that must not import each other: a module that offers an extension point
 * (uploads: upload kinds) is given the other modules' implementations here. Called once per
 * process by the composition roots (buildApp, the worker) and by tests that run a module without
 * them; calling it again changes nothing.
 */
import { pledgeEventsUpload } from './modules/pledges/index.ts';
import { registerUploadKind } from './modules/uploads/index.ts';

let registered = false;

export function registerModules(): void {
  if (registered) {
    return;
  }
  registered = true;
  registerUploadKind(pledgeEventsUpload);
}
