/**
 * Stored objects by storage config and key (docs/architecture.md, "Stored objects"): what the doors
 * that know an object by where it is stored rather than by a virtual path — file shares, share
 * uploads, the fs API's relay and presigned uploads — do to storage. They reach it only here; the
 * drivers come from the driver pool (vfs/driver-pool.ts), the quota from vfs/quota.ts, and change
 * events go to the vfs's feed.
 *
 * Driver failures are thrown as they are (a `StorageError`, see {@link isStorageError}): each door
 * answers them in its own words (vfs/storage-answers.ts).
 */
import type {
  Entry,
  MultipartPart,
  MultipartPartInfo,
  PendingUpload,
  PresignGetOptions,
  PresignPartOptions,
  ReadOptions,
  ReadResult,
  WriteResult,
} from '../storage/driver.ts';
import { capable } from './capabilities.ts';
import type { StorageChange } from './changes.ts';
import type { DriverPool, StorageConfigRecord } from './driver-pool.ts';
import type { Capacity, StorageQuota } from './quota.ts';
import { type ServeObjectOptions, serveObject } from './serve-object.ts';
import { meter } from './vfs.ts';

export { ByteLimit } from '../storage/byte-limit.ts';
export {
  type Entry,
  isStorageError,
  MULTIPART_LIMITS,
  type MultipartPart,
  type MultipartPartInfo,
} from '../storage/driver.ts';
export type { StorageConfigRecord } from './driver-pool.ts';

/** A storage config, or its id. */
export type ConfigRef = StorageConfigRecord | string;

export interface StoredObjectsDeps {
  drivers: DriverPool;
  /** Each config's quota, which writes reserve from (vfs/quota.ts). */
  quota?: StorageQuota;
  /** Tells every listener of a change (the vfs's feed); resolves once they followed it. */
  report: (change: StorageChange) => Promise<void>;
}

export class StoredObjects {
  constructor(private readonly deps: StoredObjectsDeps) {}

  private driver(config: ConfigRef) {
    return this.deps.drivers.driver(config);
  }

  private async config(config: ConfigRef): Promise<StorageConfigRecord | undefined> {
    return typeof config === 'string' ? this.deps.drivers.find(config) : config;
  }

  /** Where local presigned URLs are made (to be moved onto the client's origin). */
  get internalBaseUrl(): string {
    return this.deps.drivers.internalBaseUrl;
  }

  // ---- reading --------------------------------------------------------------------------------

  async stat(config: ConfigRef, key: string): Promise<Entry> {
    return (await this.driver(config)).stat(key);
  }

  async read(config: ConfigRef, key: string, options: ReadOptions = {}): Promise<ReadResult> {
    return (await this.driver(config)).read(key, options);
  }

  /** Streams an object as an HTTP answer (vfs/serve-object.ts: Range, validators, HEAD). */
  async serve(
    c: Parameters<typeof serveObject>[0],
    config: ConfigRef,
    options: Omit<ServeObjectOptions, 'driver'>,
  ): Promise<Response> {
    let driver;
    try {
      driver = await this.driver(config);
    } catch (error) {
      // `done` is owed once the request is done with the object, whether bytes went or not.
      options.done?.();
      throw error;
    }
    return serveObject(c, { ...options, driver });
  }

  /** A URL that downloads the object until it expires; undefined when the storage cannot sign one. */
  async presignGet(config: ConfigRef, key: string, options: PresignGetOptions): Promise<URL | undefined> {
    const driver = await this.driver(config);
    return driver.presignGet ? driver.presignGet(key, options) : undefined;
  }

  // ---- writing --------------------------------------------------------------------------------

  /**
   * Streams `body` into `key`. Unless its bytes are a pending share's (`pendingShare`: the pending
   * file row holds them in the quota, and the upload reports the change when the file is ready),
   * the write reserves its size (or `expected`, or as its bytes arrive) from the config's quota
   * first (507 when there is no room) and reports what it wrote.
   */
  async write(
    config: ConfigRef,
    key: string,
    body: ReadableStream<Uint8Array>,
    options: { size?: number; contentType?: string; expected?: number; pendingShare?: boolean } = {},
  ): Promise<WriteResult> {
    const { expected, pendingShare, ...writeOptions } = options;
    const driver = await this.driver(config);
    if (pendingShare) return driver.write(key, body, writeOptions);
    const record = await this.config(config);
    const reservation = record
      ? await this.deps.quota?.reserve({ config: record, path: key }, options.size ?? expected ?? 0)
      : undefined;
    const metered = reservation ? meter(body, reservation) : { body, failure: undefined };
    try {
      const result = await driver.write(key, metered.body, writeOptions);
      await this.deps.report({
        kind: 'written',
        at: { configId: typeof config === 'string' ? config : config.id, path: key },
        size: result.size,
        etag: result.etag,
      });
      return result;
    } catch (error) {
      throw metered.failure ?? error;
    } finally {
      await reservation?.release();
    }
  }

  /**
   * Removes an object and reports it gone (`ownShare`: a share's own object; `size`: the bytes it
   * held, when known, for the quota's count).
   */
  async remove(
    config: ConfigRef,
    key: string,
    change: { ownShare?: true; size?: number } = {},
  ): Promise<void> {
    await (await this.driver(config)).remove(key);
    await this.deps.report({
      kind: 'deleted',
      at: { configId: typeof config === 'string' ? config : config.id, path: key },
      ...change,
    });
  }

  // ---- multipart uploads ----------------------------------------------------------------------

  async initMultipart(config: ConfigRef, key: string, contentType: string): Promise<string> {
    return (await (await this.driver(config)).multipart.init(key, { contentType })).uploadId;
  }

  async listParts(config: ConfigRef, key: string, uploadId: string): Promise<MultipartPartInfo[]> {
    return (await this.driver(config)).multipart.listParts(key, uploadId);
  }

  async uploadPart(
    config: ConfigRef,
    key: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    size: number,
  ): Promise<{ etag: string }> {
    return (await this.driver(config)).multipart.uploadPart(key, uploadId, partNumber, body, { size });
  }

  /** Completes an upload; the caller reports the object written once it is what it should be. */
  async completeMultipart(
    config: ConfigRef,
    key: string,
    uploadId: string,
    parts: MultipartPart[],
  ): Promise<WriteResult> {
    return (await this.driver(config)).multipart.complete(key, uploadId, parts);
  }

  async abortMultipart(config: ConfigRef, key: string, uploadId: string): Promise<void> {
    await (await this.driver(config)).multipart.abort(key, uploadId);
  }

  /** The unfinished multipart uploads a storage holds (at most `limit`). */
  async listUploads(config: ConfigRef, limit: number): Promise<PendingUpload[]> {
    return (await this.driver(config)).multipart.listUploads(limit);
  }

  /** Whether the storage signs part URLs a browser PUTs to. */
  async canPresignParts(config: ConfigRef): Promise<boolean> {
    return capable(await this.driver(config), 'presignPart');
  }

  async presignPart(
    config: ConfigRef,
    key: string,
    uploadId: string,
    partNumber: number,
    options: PresignPartOptions,
  ): Promise<URL> {
    const driver = await this.driver(config);
    if (!driver.presignPart)
      throw new Error(
        `storage config ${typeof config === 'string' ? config : config.id} cannot presign parts`,
      );
    return driver.presignPart(key, uploadId, partNumber, options);
  }

  // ---- room and upkeep ------------------------------------------------------------------------

  /**
   * Space left for uploads: the quota (`total_storage_bytes`) less what the config holds and what
   * writes under way reserved (vfs/quota.ts), and for local disk also what the file system has
   * free. Null when unlimited.
   */
  async capacity(config: StorageConfigRecord): Promise<Capacity | null> {
    let limit = (await this.deps.quota?.capacity(config)) ?? null;
    const disk = await (await this.driver(config)).space?.();
    if (disk && (!limit || disk.freeBytes < limit.freeBytes)) limit = disk;
    return limit;
  }

  /**
   * 507 unless `config`, any folder with a quota around `key` in it, and the quota of `ownerId`
   * (a member's, wherever their share lands) hold no more than theirs, `asked` bytes reserved
   * already included.
   */
  async checkQuota(
    config: StorageConfigRecord,
    key: string,
    asked: number,
    ownerId?: string | null,
  ): Promise<void> {
    await this.deps.quota?.check({ config, path: key, ownerId }, asked);
  }

  /** Removes the temp files crashed writes left in a storage (local disk has them); 0 for others. */
  async sweepTemp(configId: string, maxAgeMs: number): Promise<number> {
    return (await (await this.driver(configId)).sweepTemp?.(maxAgeMs)) ?? 0;
  }
}
