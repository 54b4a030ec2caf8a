/**
 * How the WebDAV driver reads failures: a socket or TLS error, or an HTTP status, becomes a
 * StorageError (driver.ts) with a `reason` where one applies. Messages name the operation and the
 * path, never a credential or a URL with one; the original error stays in `cause`.
 */
import { StorageError, type StorageErrorCode, type StorageErrorReason } from '../../driver.ts';
import { isTlsError, networkErrno } from '../../network-errors.ts';

function reasonOfSocketError(error: unknown): StorageErrorReason | undefined {
  if (isTlsError(error)) return 'tls';
  if (networkErrno(error)) return 'unreachable';
  const message = (error as Error | null)?.message ?? '';
  if (message === 'aborted' || message === 'socket hang up') return 'unreachable';
  return undefined;
}

/** A socket, TLS or stream failure as UNAVAILABLE (with its reason); anything else as it is. */
export function networkError(error: unknown, op: string, path: string): unknown {
  if (error instanceof StorageError) return error;
  const reason = reasonOfSocketError(error);
  if (!reason) return error;
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new StorageError('UNAVAILABLE', `${op} ${path}: ${code}`, { cause: error, reason });
}

const STATUS_CODES: Record<number, [StorageErrorCode, StorageErrorReason?]> = {
  401: ['FORBIDDEN', 'auth'],
  403: ['FORBIDDEN', 'permission'],
  404: ['NOT_FOUND'],
  405: ['ALREADY_EXISTS'],
  412: ['PRECONDITION_FAILED'],
  413: ['TOO_LARGE'],
  416: ['INVALID_RANGE'],
  423: ['FORBIDDEN', 'permission'],
  507: ['NO_SPACE'],
};

/**
 * The StorageError for an HTTP status the operation did not expect. 409 (a missing parent) and 405
 * (something is there) mean different things per method; the driver reads them itself first.
 * Anything else — a 5xx, a redirect, a status WebDAV does not use — means the endpoint cannot serve
 * as this storage now: UNAVAILABLE.
 */
export function statusError(status: number, op: string, path: string): StorageError {
  const [code, reason] = STATUS_CODES[status] ?? ['UNAVAILABLE'];
  return new StorageError(code, `${op} ${path}: HTTP ${status}`, reason ? { reason } : undefined);
}
