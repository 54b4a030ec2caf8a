/**
 * Local storage's presigned URLs come back to this server (docs/storage.md, "Storage"), and so do
 * the download links of any storage whose mount sends downloads through this server
 * (docs/storage.md, "Download links"): a download (`get`) reads through the config's driver,
 * whatever its kind; uploads (`put`, `part`) are local disk's alone. A signed
 * request is checked here — its signature, its expiry, the storage config it names — and what it may
 * do is bound to the one key it was signed for, so the HTTP door (modules/storage-links) never holds
 * a driver. The bytes were reserved from the quota when the URL was issued (vfs/objects.ts), and the
 * upload's commit reports the change.
 */
import type { Clock } from '../lib/clock.ts';
import type { ByteRange, Entry, ReadResult, StorageDriver } from '../storage/driver.ts';
import type { LocalDriver } from '../storage/drivers/local/local-driver.ts';
import {
  type LocalPresignOp,
  type LocalSignedParams,
  parseLocalPresignQuery,
  verifyLocalSignature,
} from '../storage/drivers/local/local-signature.ts';

export { LOCAL_PRESIGN_MOUNT } from '../storage/drivers/local/local-signature.ts';
export { parseRangeHeader, rangeForSize } from '../storage/byte-range.ts';
export type { ByteRange, Entry, LocalPresignOp, LocalSignedParams, ReadResult };

/** What a verified URL may do, on its own key only. */
export interface SignedObject {
  stat(): Promise<Entry>;
  read(range?: ByteRange): Promise<ReadResult>;
  /** The whole object, exactly `size` bytes. */
  write(body: ReadableStream<Uint8Array>, size: number, contentType?: string): Promise<{ etag?: string }>;
  /** The part the URL was signed for. */
  uploadPart(body: ReadableStream<Uint8Array>, size: number): Promise<{ etag: string }>;
}

export type SignedOpening =
  | { refused: 'invalid' | 'expired' | 'unknown-storage' }
  | { refused?: undefined; params: LocalSignedParams; object: SignedObject };

export interface SignedLinksDeps {
  /** The local driver of a config id; undefined for an unknown or S3 config (vfs/driver-pool.ts). */
  localDriver(configId: string): Promise<LocalDriver | undefined>;
  /** The driver of any config id; undefined for an unknown one. */
  driver(configId: string): Promise<StorageDriver | undefined>;
  /** The secret the local drivers sign with (SECRET_KEY). */
  secret: string;
  clock: Clock;
}

export class SignedLinks {
  constructor(private readonly deps: SignedLinksDeps) {}

  /** Checks a signed request before a byte of its body is read. */
  async open(
    op: LocalPresignOp,
    configId: string,
    query: (name: string) => string | undefined,
  ): Promise<SignedOpening> {
    const params = parseLocalPresignQuery(op, configId, query);
    if (!params) return { refused: 'invalid' };
    const check = verifyLocalSignature(params, this.deps.secret, this.deps.clock);
    if (!check.ok) return { refused: check.reason === 'EXPIRED' ? 'expired' : 'invalid' };
    const driver = op === 'get' ? await this.deps.driver(configId) : await this.deps.localDriver(configId);
    if (!driver) return { refused: 'unknown-storage' };
    const key = params.key;
    return {
      params,
      object: {
        stat: () => driver.stat(key),
        read: (range) => driver.read(key, range ? { range } : {}),
        write: (body, size, contentType) =>
          driver.write(key, body, contentType ? { size, contentType } : { size }),
        uploadPart: (body, size) =>
          driver.multipart.uploadPart(key, params.uploadId ?? '', params.partNumber ?? 0, body, { size }),
      },
    };
  }
}
