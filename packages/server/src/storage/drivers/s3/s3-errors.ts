/**
 * How the S3 driver reads the SDK's errors: each failure becomes a StorageError code (driver.ts), with
 * a message naming the operation and path, never a credential.
 */
import { StorageError, type StorageErrorCode } from '../../driver.ts';
import { networkErrno } from '../../network-errors.ts';

const NOT_FOUND_NAMES = new Set(['NoSuchKey', 'NotFound', 'NoSuchUpload']);
const FORBIDDEN_NAMES = new Set([
  'AccessDenied',
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId',
  'InvalidToken',
  'ExpiredToken',
  'Forbidden',
]);
const PRECONDITION_NAMES = new Set([
  'EntityTooSmall',
  'InvalidPart',
  'InvalidPartOrder',
  'PreconditionFailed',
]);
const NETWORK_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'AbortError']);

interface SdkErrorShape {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  errors?: Array<{ code?: string }>;
}

export function classify(error: unknown): StorageErrorCode | undefined {
  const e = (error ?? {}) as SdkErrorShape;
  const name = e.name ?? '';
  const status = e.$metadata?.httpStatusCode;
  if (NOT_FOUND_NAMES.has(name)) return 'NOT_FOUND';
  // A missing bucket is a broken config, not a missing file.
  if (name === 'NoSuchBucket') return 'UNAVAILABLE';
  // The bucket's own quota (radosgw answers it with 403).
  if (name === 'QuotaExceeded') return 'NO_SPACE';
  if (FORBIDDEN_NAMES.has(name) || status === 403 || status === 401) return 'FORBIDDEN';
  if (name === 'InvalidRange' || status === 416) return 'INVALID_RANGE';
  if (PRECONDITION_NAMES.has(name) || status === 412) return 'PRECONDITION_FAILED';
  if (name === 'EntityTooLarge' || status === 413) return 'TOO_LARGE';
  if (status === 404) return 'NOT_FOUND';
  if (NETWORK_NAMES.has(name) || networkErrno(e)) return 'UNAVAILABLE';
  if (e.errors?.some((inner) => networkErrno(inner))) return 'UNAVAILABLE';
  // Anything else the endpoint answered — another status, or a 200 whose body is not S3's XML (a web
  // page, a proxy's notice) — means it cannot serve as this storage: unavailable, not a bug here.
  if (status !== undefined) return 'UNAVAILABLE';
  return undefined;
}

/** A StorageError for an SDK failure. The SDK's own message is left in `cause`, out of the message. */
export function toStorageError(error: unknown, op: string, path: string): unknown {
  if (error instanceof StorageError) return error;
  const code = classify(error);
  if (!code) return error;
  const e = error as SdkErrorShape;
  const detail = [e.name, e.code, e.$metadata?.httpStatusCode].filter(Boolean).join(' ');
  return new StorageError(code, `${op} ${path}: ${detail}`, { cause: error });
}
