/**
 * What a storage error means to a client, one table for every door (docs/architecture.md, "The HTTP
 * edge"): the fs API and WebDAV, share uploads, file downloads and local storage's signed URLs answer
 * a driver's `StorageError` with the same status and error code. A door may say it in its own words
 * (its message for a code), never with another status.
 */
import {
  isStorageError,
  type StorageError,
  type StorageErrorCode,
  type StorageErrorReason,
} from '../storage/driver.ts';
import type { ErrorCode } from '@cubby/shared';
import { type AppError, failure } from '../errors/app-error.ts';
import type { MessageKey } from '../errors/messages.ts';

interface StorageStatus {
  status: 400 | 403 | 404 | 409 | 413 | 416 | 503 | 507;
  code: ErrorCode;
  /** Said unless the door has its own words for it. */
  message: MessageKey;
}

export const STORAGE_STATUS: Record<StorageErrorCode, StorageStatus> = {
  NOT_FOUND: { status: 404, code: 'NOT_FOUND', message: 'fs.not_found' },
  ALREADY_EXISTS: { status: 409, code: 'CONFLICT', message: 'fs.already_exists' },
  NOT_A_DIRECTORY: { status: 409, code: 'CONFLICT', message: 'fs.not_a_directory' },
  IS_A_DIRECTORY: { status: 409, code: 'CONFLICT', message: 'fs.is_a_directory' },
  INVALID_PATH: { status: 400, code: 'VALIDATION_FAILED', message: 'fs.path_invalid' },
  // What was sent does not hold together (a body shorter than its length, parts the storage refuses).
  PRECONDITION_FAILED: { status: 400, code: 'VALIDATION_FAILED', message: 'fs.precondition_failed' },
  TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'storage.error.too_large' },
  NO_SPACE: { status: 507, code: 'STORAGE_FULL', message: 'storage.error.no_space' },
  UNAVAILABLE: { status: 503, code: 'STORAGE_UNAVAILABLE', message: 'storage.error.unavailable' },
  FORBIDDEN: { status: 403, code: 'FORBIDDEN', message: 'fs.storage_forbidden' },
  INVALID_RANGE: { status: 416, code: 'VALIDATION_FAILED', message: 'fs.range_invalid' },
};

/**
 * Reasons that say why a server refused or could not be reached whatever the operation (the storage
 * test's words, docs/storage.md, "Testing a connection"): an SFTP server gone is told as such, not as
 * an S3 endpoint or bucket. A missing folder is not among them (it names the configured root only).
 */
const CONNECTION_REASONS: ReadonlySet<StorageErrorReason> = new Set([
  'unreachable',
  'auth',
  'host_key',
  'tls',
]);

/** The answer to a storage error, in the door's words where it has them, else its reason's. */
export function storageAnswer(
  error: StorageError,
  words: Partial<Record<StorageErrorCode, MessageKey>> = {},
): AppError {
  const { status, code, message } = STORAGE_STATUS[error.code];
  const reason = error.reason && CONNECTION_REASONS.has(error.reason) ? error.reason : undefined;
  // The storage refused Cubby itself (its sign-in, host key, TLS): it cannot be used now, whoever
  // asks — a 403 would read as the caller's own permission.
  if (reason && status === 403) {
    return failure(503, 'STORAGE_UNAVAILABLE')(`storage.reason.${reason}`);
  }
  return failure(status, code)(words[error.code] ?? (reason ? `storage.reason.${reason}` : message));
}

/** A storage error as its answer; anything else (a bug, an answer already) as it is. */
export function asStorageAnswer(
  error: unknown,
  words?: Partial<Record<StorageErrorCode, MessageKey>>,
): unknown {
  return isStorageError(error) ? storageAnswer(error, words) : error;
}

/** A driver error as the fs answer it deserves; anything else as it is. */
export function fsStorageFailure(error: unknown): unknown {
  return asStorageAnswer(error);
}

/** Runs a driver call, turning its StorageErrors into answers. */
export async function storageOp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fsStorageFailure(error);
  }
}
