/** Where the end-to-end stack listens; shared by the Playwright config, the stack script and the tests. */
export const E2E_APP_PORT = 3210;
export const E2E_MAIL_API_PORT = 3226;
export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_MAIL_API_URL = `http://127.0.0.1:${E2E_MAIL_API_PORT}`;
