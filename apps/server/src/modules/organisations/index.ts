/** The organisations module's public entry: creating an organisation and its accounts (CLI, demo). */
export { createOrganisation, createUserAccount } from './organisations.service.ts';
