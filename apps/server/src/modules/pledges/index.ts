/** The pledges module's public entry: the pledge-events upload kind, registered with uploads in wiring.ts. */
export { pledgeEventsUpload } from './pledge-events-upload.ts';
export { pledgeRoutes } from './pledges.routes.ts';
