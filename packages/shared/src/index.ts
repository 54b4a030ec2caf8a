export * from './api.ts';
export * from './api-keys.ts';
export * from './paths.ts';
export * from './principal.ts';
export * from './shares.ts';
export * from './sizes.ts';
