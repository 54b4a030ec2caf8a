/**
 * What a caller may ask of the storage under a path, read from the driver's declared capabilities
 * (storage/driver.ts; the contract suite holds each driver to its declaration). The one place the
 * vfs and its object operations decide by what a storage can do, never by which kind it is.
 */
import type { StorageDriver } from '../storage/driver.ts';

/**
 * The driver's own presigned URLs, and `proxyPut`: a body streamed to a presigned PUT URL reaches
 * the storage itself, not this server (local disk's URLs come back here: nothing is gained by them).
 * `contentEtag`: a file's ETag is the MD5 of its bytes (when written in one part), so equal ETags on
 * two such storages mean equal files.
 */
export type VfsCapability = 'presignGet' | 'presignPut' | 'presignPart' | 'proxyPut' | 'contentEtag';

export function capable(driver: StorageDriver, capability: VfsCapability): boolean {
  const can = driver.capabilities;
  if (capability === 'contentEtag') return can.etag === 'md5';
  return capability === 'proxyPut' ? can.directUrls && can.presignPut : can[capability];
}
