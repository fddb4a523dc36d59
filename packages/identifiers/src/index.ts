export * from './documents.ts';
export * from './extract.ts';
export { plural } from './plural.ts';
export * from './schemas.ts';
export * from './vin.ts';
export * from './wmi.ts';
