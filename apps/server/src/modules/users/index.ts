/** The users module's public entry: the account lookups organisations need to create an admin. */
export { getUserByEmail, insertUser } from './users.queries.ts';
