/**
 * The S3 driver's tuning: part sizes, copy limits, concurrency and timeouts (docs/architecture.md,
 * "Drivers"). The defaults are what bench/RESULTS.md measured; tests pass smaller ones.
 */

export interface S3Tuning {
  /** Largest known-size body sent as one PutObject; larger or unknown sizes go multipart. */
  singlePutMaxBytes: number;
  /**
   * Part size of streamed multipart uploads (grown when needed to stay under 10,000 parts). A write
   * holds two parts in memory (one on the wire, one filling), so RSS grows by about twice this.
   */
  partSize: number;
  /** Largest object copied with one CopyObject (S3 refuses more than 5 GiB). */
  copyMaxBytes: number;
  /** Part size of a multipart copy of larger objects. */
  copyPartSize: number;
  /** Requests in flight at once for directory copies and moves. */
  concurrency: number;
}

export const MiB = 1024 * 1024;

export const DEFAULT_S3_TUNING: S3Tuning = {
  singlePutMaxBytes: 16 * MiB,
  partSize: 8 * MiB,
  copyMaxBytes: 5 * 1024 * MiB,
  copyPartSize: 256 * MiB,
  concurrency: 8,
};

export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
/** Lifetime of the signed URL of a read: it is used at once, by the driver itself. */
export const READ_URL_SECONDS = 60;
export const CONNECT_TIMEOUT_MS = 10_000;
