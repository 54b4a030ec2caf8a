/**
 * The JSON envelope every `/api` answer uses (docs/architecture.md, "The HTTP edge"), the stable machine
 * error codes, and the header that asks for English messages.
 */

/**
 * Messages are Chinese unless a request carries this header with a value starting with `en`: the
 * CloudPaste client recognises errors by their Chinese text whatever the browser's language, so only
 * our own web app (which sends its UI language here) gets English.
 */
export const LANG_HEADER = 'X-Cubby-Lang';

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  /** The password was right, and the account asks for its second factor too (401; docs/accounts.md). */
  'TWO_FACTOR_REQUIRED',
  'FORBIDDEN',
  /**
   * A folder password protects the path (403, CloudPaste 1.9's code): `data.path` names the folder
   * whose password opens it (POST /api/fs/meta/password/verify).
   */
  'FS_PATH_PASSWORD_REQUIRED',
  'NOT_FOUND',
  'CONFLICT',
  /** A WebDAV client holds a lock on the path that was to be written (423). */
  'LOCKED',
  'GONE',
  'PAYLOAD_TOO_LARGE',
  /** A request body did not arrive in time (408; the connection is closed). */
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  /** A write made on a version of a file that has changed since (412). */
  'PRECONDITION_FAILED',
  'STORAGE_FULL',
  'STORAGE_UNAVAILABLE',
  /** A URL the user gave could not be fetched (502) or did not answer in time (504). */
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  /** The instance is shutting down (503): a load balancer retries the request on another one. */
  'SHUTTING_DOWN',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface SuccessEnvelope<T> {
  code: number;
  message: string;
  data: T;
  success: true;
}

export interface ErrorEnvelope {
  code: number;
  message: string;
  /** null, or facts the client shows (507 STORAGE_FULL: `{file_size, free_bytes, total_bytes}`). */
  data: unknown;
  success: false;
  error: ErrorCode;
  /** Field-level problems of a VALIDATION_FAILED answer: path → message. */
  details?: Record<string, string>;
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;
