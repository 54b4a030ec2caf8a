/**
 * How uploads are cut up: the size above which a file goes to storage as a multipart upload, the
 * part size asked for, and how many parts travel at once. Tests (and curious admins) may override
 * the first two with localStorage `cubby.upload.tuning` = `{"multipartThreshold": …, "partSize": …}`
 * (bytes), so a browser test can exercise multipart with small files; storage still demands parts
 * of at least 5 MiB except the last.
 */

export const MiB = 1024 * 1024;

/** Smallest part S3 (and the local driver) accepts, except the last one. */
export const MIN_PART_SIZE = 5 * MiB;
/** Most parts one multipart upload may have (S3). */
export const MAX_PARTS = 10_000;
/** Largest object one presigned PUT may carry (S3); anything larger must be multipart. */
export const SINGLE_PUT_MAX = 5 * 1024 * MiB;

export interface UploadTuning {
  /** Files larger than this go multipart. */
  multipartThreshold: number;
  /** Part size asked for at init (the server may raise it). */
  partSize: number;
  /** Parts in flight at once (docs/product.md §9: 3). */
  partConcurrency: number;
  /** Attempts per part before the upload fails. */
  partTries: number;
  /** Milliseconds one part (or a whole small file) may take (docs/product.md §9: 300000). */
  transferTimeoutMs: number;
}

export const DEFAULT_TUNING: UploadTuning = {
  multipartThreshold: 32 * MiB,
  partSize: 8 * MiB,
  partConcurrency: 3,
  partTries: 3,
  transferTimeoutMs: 300_000,
};

export const TUNING_STORAGE_KEY = 'cubby.upload.tuning';

const positiveInteger = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;

/** The tuning in effect: the defaults, with valid overrides from `storage` applied. */
export function readTuning(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): UploadTuning {
  let override: Record<string, unknown> = {};
  try {
    const raw = storage?.getItem(TUNING_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      override = parsed as Record<string, unknown>;
    }
  } catch {
    // A malformed override is ignored.
  }
  return {
    ...DEFAULT_TUNING,
    multipartThreshold: positiveInteger(override.multipartThreshold) ?? DEFAULT_TUNING.multipartThreshold,
    partSize: Math.max(MIN_PART_SIZE, positiveInteger(override.partSize) ?? DEFAULT_TUNING.partSize),
  };
}
