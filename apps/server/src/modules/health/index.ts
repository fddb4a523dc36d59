/** The health module's public entry: its routes (liveness and readiness), registered in app.ts. */
export { healthRoutes } from './health.routes.ts';
