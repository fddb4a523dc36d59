/** The users module's public entry: the account lookups organisations need to create an admin. */

export { currentUserRoutes } from './current-user.routes.ts';
export { getUserByEmail, insertUser } from './users.queries.ts';
export { memberRoutes, userRoutes } from './users.routes.ts';
