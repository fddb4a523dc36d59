/** The api-keys module's public entry: its routes, and how a bearer key becomes the caller (app.ts). */
export { apiKeyRoutes } from './api-keys.routes.ts';
export { authenticateApiKey } from './api-keys.service.ts';
