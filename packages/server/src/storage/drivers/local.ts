/**
 * Where the local-disk driver was before it had a folder: kept only for modules/storage-configs until
 * it builds drivers through the vfs and the registry (storage/registry.ts); delete it then.
 */
export { createLocalDriver, type LocalDriver } from './local/local-driver.ts';
