/** The platform module's public entry: its routes (build info, staff tools), registered in app.ts. */
export { buildRoutes, platformRoutes } from './platform.routes.ts';
