/**
 * Where the end-to-end stack listens; shared by the Playwright config, the stack script and the tests.
 * E2E_PORT moves both ports, so two checkouts on one machine can run their end-to-end tests at once.
 */
const basePort = Number(process.env.E2E_PORT ?? 3210);
export const E2E_APP_PORT = basePort;
export const E2E_MAIL_API_PORT = basePort + 16;
export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_MAIL_API_URL = `http://127.0.0.1:${E2E_MAIL_API_PORT}`;
/** A stand-in remote source (the `passport` source) whose answer a test can switch to 503. */
export const E2E_SOURCE_PORT = basePort + 17;
export const E2E_SOURCE_URL = `http://127.0.0.1:${E2E_SOURCE_PORT}`;
/** The provider simulator (`npm run providers`): the `bankruptcy` source speaks Fedresurs's REST format to it. */
export const E2E_PROVIDERS_PORT = basePort + 18;
export const E2E_PROVIDERS_URL = `http://127.0.0.1:${E2E_PROVIDERS_PORT}`;
