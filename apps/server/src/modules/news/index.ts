/** The news module's public entry: its routes, registered in app.ts. */
export { newsRoutes } from './news.routes.ts';
