/**
 * Connects modules that must not import each other: a module that offers an extension point
 * (uploads: upload kinds) is given the other modules' implementations here, once per process.
 * Loaded by jobs/job-registry.ts, which the server, the worker and the tests all load.
 */
import { pledgeEventsUpload } from './modules/pledges/index.ts';
import { registerUploadKind } from './modules/uploads/index.ts';

registerUploadKind(pledgeEventsUpload);
