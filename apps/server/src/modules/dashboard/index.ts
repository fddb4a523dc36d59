/** The dashboard module's public entry: its routes, registered in app.ts. */
export { dashboardRoutes } from './dashboard.routes.ts';
