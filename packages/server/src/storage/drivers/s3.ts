/**
 * Where the S3 driver was before it had a folder: kept only for modules/storage-configs until it
 * builds drivers through the vfs and the registry (storage/registry.ts); delete it then.
 */
export { createS3Driver } from './s3/s3-driver.ts';
export { resolveS3ClientSettings, type S3Provider } from './s3/s3-settings.ts';
