/** The saved-views module's public entry: its routes, registered in app.ts. */
export { savedViewRoutes } from './saved-views.routes.ts';
