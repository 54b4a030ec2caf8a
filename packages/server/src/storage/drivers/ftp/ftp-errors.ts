/**
 * How the FTP driver reads failures (docs/architecture.md, "Drivers"): an FTP reply code (with the
 * few reply texts servers agree on), a socket error, or a TLS error becomes one StorageError with a
 * code and, where it tells, a reason. Messages name the operation and the path, never a credential;
 * the original error stays in `cause`.
 */
import { FTPError } from 'basic-ftp';
import { StorageError, type StorageErrorCode, type StorageErrorReason } from '../../driver.ts';
import { isTlsError, networkErrno } from '../../network-errors.ts';

/** The reply code of a refused FTP command, or undefined for any other error. */
export function ftpCode(error: unknown): number | undefined {
  return error instanceof FTPError ? error.code : undefined;
}

/** What a refused command's reply says, for the replies whose text servers share. */
function replyCode(code: number, message: string): [StorageErrorCode, StorageErrorReason?] {
  if (code === 530 || code === 332) return ['FORBIDDEN', 'auth'];
  if (code === 421) return ['UNAVAILABLE', 'unreachable'];
  if (code === 452 || code === 552) return ['NO_SPACE'];
  if (code === 553) return ['INVALID_PATH'];
  if (/permission denied|access denied|not allowed|prohibited/i.test(message)) {
    return ['FORBIDDEN', 'permission'];
  }
  if (/not a directory/i.test(message)) return ['NOT_A_DIRECTORY'];
  if (/is a directory/i.test(message)) return ['IS_A_DIRECTORY'];
  if (/not empty/i.test(message)) return ['PRECONDITION_FAILED'];
  if (/exists/i.test(message)) return ['ALREADY_EXISTS'];
  if (code === 550 || code === 450) return ['NOT_FOUND'];
  if (code >= 500) return ['FORBIDDEN', 'permission'];
  return ['UNAVAILABLE'];
}

/**
 * The StorageError for any failure of `op` on `path`: a StorageError stays as it is; every error
 * that is not a refused command is the connection's (basic-ftp closes a client on those).
 */
export function ftpStorageError(error: unknown, op: string, path: string): StorageError {
  if (error instanceof StorageError) return error;
  const code = ftpCode(error);
  if (code !== undefined) {
    const [storageCode, reason] = replyCode(code, (error as Error).message);
    return new StorageError(storageCode, `${op} ${path}: FTP ${code}`, {
      cause: error,
      ...(reason ? { reason } : {}),
    });
  }
  if (isTlsError(error)) {
    return new StorageError('UNAVAILABLE', `${op} ${path}: TLS failed`, { cause: error, reason: 'tls' });
  }
  return new StorageError('UNAVAILABLE', `${op} ${path}: ${networkErrno(error) ?? 'connection lost'}`, {
    cause: error,
    reason: 'unreachable',
  });
}

export function mapFtpError(error: unknown, op: string, path: string): never {
  throw ftpStorageError(error, op, path);
}
