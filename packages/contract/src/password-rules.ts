/**
 * Password length limits. A module of its own without zod, so the sign-in bundle can show the rule
 * without loading the schemas (see apps/web/vite.config.ts).
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
