/**
 * What goes wrong moving bytes (a PUT to storage, a download), and how an upload failure is told
 * to the user (docs/product.md §8): the server's message for API errors, with the sizes of a 507
 * STORAGE_FULL; the catalogue's texts for time-outs, network errors and cancellation; "part n
 * failed: HTTP s / network error / cancelled" for a part. Messages are kept as keys with
 * parameters, so a failure shown earlier follows a language switch.
 */
import type { ParseKeys } from 'i18next';
import { formatBytes } from '@cubby/shared';
import { isApiError } from '../api/index.ts';

export type TransferFailureKind =
  | 'http'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'no-etag'
  | 'size-mismatch'
  /** A download of unknown size passed the largest file allowed (`limit`): cut there. */
  | 'too-large';

export class TransferError extends Error {
  override readonly name = 'TransferError';

  constructor(
    readonly kind: TransferFailureKind,
    /** HTTP status for `http`. */
    readonly status = 0,
    /** The part, when the failure belongs to one part of a multipart upload. */
    readonly partNumber?: number,
    /** The server's own message (already in the UI language), when it answered one. */
    readonly detail?: string,
    /** For `too-large`: the limit passed, in bytes. */
    readonly limit?: number,
  ) {
    super(kind === 'http' ? `HTTP ${status}` : kind);
  }

  /** The same failure, attributed to a part. */
  forPart(partNumber: number): TransferError {
    return new TransferError(this.kind, this.status, partNumber, this.detail, this.limit);
  }
}

export function cancelledError(): TransferError {
  return new TransferError('cancelled');
}

/** Whether an error means the user cancelled (a transfer, or an API call made with their signal). */
export function isCancellation(error: unknown): boolean {
  return (
    (error instanceof TransferError && error.kind === 'cancelled') ||
    (isApiError(error) && error.code === 'CANCELLED') ||
    (error instanceof DOMException && error.name === 'AbortError')
  );
}

/** Whether a failed transfer is worth another attempt: transport trouble, 5xx, 408, 429, or an expired URL (403). */
export function isRetryableTransfer(error: unknown): boolean {
  if (!(error instanceof TransferError)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.kind === 'http' && (error.status >= 500 || [403, 408, 429].includes(error.status));
}

/** Sizes of a 507 STORAGE_FULL answer. */
export interface StorageShortage {
  fileSize: number;
  freeBytes: number;
  totalBytes: number;
}

export interface UploadFailure {
  /** A translation key and its parameters… */
  key?: ParseKeys;
  params?: Record<string, string | number>;
  /** …or the server's own message (already in the UI language). */
  message?: string;
  storage?: StorageShortage;
  cancelled: boolean;
}

function storageShortage(data: Record<string, unknown> | undefined): StorageShortage | undefined {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const fileSize = number(data?.file_size);
  const freeBytes = number(data?.free_bytes);
  const totalBytes = number(data?.total_bytes);
  return fileSize === null || freeBytes === null || totalBytes === null
    ? undefined
    : { fileSize, freeBytes, totalBytes };
}

const TRANSFER_KEYS: Record<TransferFailureKind, ParseKeys> = {
  http: 'upload.errors.storageHttp',
  network: 'errors.network',
  timeout: 'errors.timeout',
  cancelled: 'errors.cancelled',
  'no-etag': 'upload.errors.noEtag',
  'size-mismatch': 'upload.errors.sizeMismatch',
  'too-large': 'upload.errors.downloadTooLarge',
};

const PART_KEYS: Partial<Record<TransferFailureKind, ParseKeys>> = {
  http: 'upload.errors.partHttp',
  network: 'upload.errors.partNetwork',
  timeout: 'upload.errors.partTimeout',
};

/** How any error of an upload is shown. */
export function toUploadFailure(error: unknown): UploadFailure {
  if (isCancellation(error)) return { key: 'errors.cancelled', cancelled: true };
  if (error instanceof TransferError) {
    if (error.detail) return { message: error.detail, cancelled: false };
    if (error.kind === 'too-large') {
      return {
        key: TRANSFER_KEYS[error.kind],
        params: { limit: formatBytes(error.limit ?? 0) },
        cancelled: false,
      };
    }
    const partKey = error.partNumber === undefined ? undefined : PART_KEYS[error.kind];
    return partKey
      ? { key: partKey, params: { part: error.partNumber!, status: error.status }, cancelled: false }
      : { key: TRANSFER_KEYS[error.kind], params: { status: error.status }, cancelled: false };
  }
  if (isApiError(error)) {
    const storage = error.code === 'STORAGE_FULL' ? storageShortage(error.data) : undefined;
    return { message: error.message, ...(storage ? { storage } : {}), cancelled: false };
  }
  return { key: 'errors.unexpected', cancelled: false };
}
