/**
 * How the local-disk driver reads the file system's errors: each errno it expects becomes a
 * StorageError code (driver.ts); anything else is a bug and stays as it is.
 */
import { StorageError, type StorageErrorCode } from '../../driver.ts';

const ERRNO_CODES: Record<string, StorageErrorCode> = {
  ENOENT: 'NOT_FOUND',
  EEXIST: 'ALREADY_EXISTS',
  ENOTEMPTY: 'PRECONDITION_FAILED',
  ENOTDIR: 'NOT_A_DIRECTORY',
  EISDIR: 'IS_A_DIRECTORY',
  ENAMETOOLONG: 'INVALID_PATH',
  EINVAL: 'INVALID_PATH',
  EACCES: 'FORBIDDEN',
  EPERM: 'FORBIDDEN',
  EROFS: 'FORBIDDEN',
  ENOSPC: 'NO_SPACE',
  EDQUOT: 'NO_SPACE',
  EFBIG: 'TOO_LARGE',
  EIO: 'UNAVAILABLE',
  ELOOP: 'FORBIDDEN',
};

/** Turns a file-system error into a StorageError; anything unexpected is rethrown as it is (a bug). */
export function mapFsError(error: unknown, op: string, path: string): never {
  if (error instanceof StorageError) throw error;
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const code = errno ? ERRNO_CODES[errno] : undefined;
  if (code) throw new StorageError(code, `${op} ${path}: ${errno}`, { cause: error });
  throw error;
}

export const isErrno = (error: unknown, ...codes: string[]): boolean =>
  codes.includes((error as NodeJS.ErrnoException | null)?.code ?? '');
