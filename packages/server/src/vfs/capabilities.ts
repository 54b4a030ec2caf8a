/**
 * What a caller may ask of the storage under a path, read from the driver's declared capabilities
 * (storage/driver.ts; the contract suite holds each driver to its declaration). The one place the
 * vfs and its object operations decide by what a storage can do, never by which kind it is.
 */
import type { StorageDriver } from '../storage/driver.ts';

/**
 * The driver's own presigned URLs, and `proxyPut`: a body streamed to a presigned PUT URL reaches
 * the storage itself, not this server (local disk's URLs come back here: nothing is gained by them).
 */
export type VfsCapability = 'presignGet' | 'presignPut' | 'presignPart' | 'proxyPut';

export function capable(driver: StorageDriver, capability: VfsCapability): boolean {
  const can = driver.capabilities;
  return capability === 'proxyPut' ? can.directUrls && can.presignPut : can[capability];
}
