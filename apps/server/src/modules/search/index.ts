/** The search module's public entry: its routes, registered in app.ts. */
export { searchRoutes } from './search.routes.ts';
