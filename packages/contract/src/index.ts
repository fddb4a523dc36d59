export * from './api-paths.ts';
export * from './auth.ts';
export * from './common.ts';
export * from './messages.ts';
export * from './platform.ts';
export * from './routes.ts';
export * from './user.ts';
