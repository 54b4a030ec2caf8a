/**
 * How the SFTP driver reads ssh2's errors: an SFTP status (a file operation's answer) or a
 * connection failure (its `level`) becomes a StorageError code and reason (driver.ts). Messages
 * name the operation and path only; ssh2's error stays in `cause` (it never holds a secret either).
 */
import { StorageError, type StorageErrorCode } from '../../driver.ts';

/** SFTP version 3 status codes (draft-ietf-secsh-filexfer-02, "Responses from the Server"). */
export const SFTP_STATUS = {
  EOF: 1,
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  FAILURE: 4,
  BAD_MESSAGE: 5,
  NO_CONNECTION: 6,
  CONNECTION_LOST: 7,
  OP_UNSUPPORTED: 8,
} as const;

const statusOf = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
};

/** Whether `error` is the SFTP answer `status`. */
export const isStatus = (error: unknown, status: number): boolean => statusOf(error) === status;

/**
 * Turns an error of an SFTP operation into a StorageError. OpenSSH answers FAILURE for many things
 * (an existing name, a folder not empty, another file system): callers that can tell which look
 * before they act, so what reaches here as FAILURE is reported as unavailable.
 */
export function mapSftpError(error: unknown, op: string, path: string): never {
  if (error instanceof StorageError) throw error;
  // A bug in this process, not an answer of the server.
  if (error instanceof TypeError || error instanceof RangeError) throw error;
  const status = statusOf(error);
  const fail = (code: StorageErrorCode, reason?: StorageError['reason']): never => {
    throw new StorageError(code, `${op} ${path}: ${describe(status)}`, {
      cause: error,
      ...(reason ? { reason } : {}),
    });
  };
  switch (status) {
    case SFTP_STATUS.NO_SUCH_FILE:
      return fail('NOT_FOUND');
    case SFTP_STATUS.PERMISSION_DENIED:
      return fail('FORBIDDEN', 'permission');
    case SFTP_STATUS.OP_UNSUPPORTED:
      return fail('FORBIDDEN', 'permission');
    default:
      // No status at all: the connection went away under the request (ssh2's "No response from
      // server"), or a status that says so.
      return fail('UNAVAILABLE', status === undefined || status >= 5 ? 'unreachable' : undefined);
  }
}

function describe(status: number | undefined): string {
  const name = Object.entries(SFTP_STATUS).find(([, value]) => value === status)?.[0];
  return name ? name.toLowerCase().replaceAll('_', ' ') : 'the connection was lost';
}

/**
 * Turns a failure to connect and sign in into a StorageError: refused credentials (FORBIDDEN,
 * 'auth'), a host key that is not the pinned one (FORBIDDEN, 'host_key', naming the key the server
 * now shows), anything else (refused, timed out, unknown host, broken handshake) UNAVAILABLE,
 * 'unreachable'.
 */
export function mapConnectError(
  error: unknown,
  server: string,
  hostKeyMismatch: string | undefined,
): StorageError {
  if (error instanceof StorageError) return error;
  if (hostKeyMismatch !== undefined) {
    return new StorageError(
      'FORBIDDEN',
      `the host key of ${server} changed: it is now ${hostKeyMismatch}, not the pinned one`,
      { cause: error, reason: 'host_key' },
    );
  }
  const level = (error as { level?: unknown } | null)?.level;
  if (level === 'client-authentication') {
    return new StorageError('FORBIDDEN', `${server} refused the username, password or key`, {
      cause: error,
      reason: 'auth',
    });
  }
  return new StorageError('UNAVAILABLE', `cannot connect to ${server}`, {
    cause: error,
    reason: 'unreachable',
  });
}

/** mapSftpError's StorageError, returned (for a stream to fail with). */
export function toStorageError(error: unknown, op: string, path: string): unknown {
  try {
    return mapSftpError(error, op, path);
  } catch (mapped) {
    return mapped;
  }
}
