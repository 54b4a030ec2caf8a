/**
 * Errors as values with stable codes. Services throw an AppError built by the factories below; the
 * one renderer in error-handler.ts turns it into the envelope and HTTP status.
 */
import { type ErrorCode, formatBytes, type SecondFactorMethod } from '@cubby/shared';
import type { MessageKey } from './messages.ts';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly details?: Record<string, MessageKey>,
    readonly headers: Record<string, string> = {},
  ) {
    super(messageKey);
    this.name = 'AppError';
  }

  /** Sent as the error answer's `data` (null when there is nothing to add). */
  readonly data: unknown = null;
}

type Params = Record<string, string | number>;

/**
 * One factory per kind of failure: the status and machine code are fixed here, once; a caller names
 * the message and its parameters. Code outside errors/ never writes `new AppError(...)` (a lint
 * rule), so a status cannot drift from its code between two doors.
 */
export const failure =
  (status: number, code: ErrorCode) =>
  (key: MessageKey, params: Params = {}) =>
    new AppError(status, code, key, params);

/** 400: the input is wrong as a whole. */
export const badRequest = failure(400, 'VALIDATION_FAILED');
/** 400 with the fields at fault, each with its own message (the form shows them beside the field). */
export const invalidFields = (key: MessageKey, details: Record<string, MessageKey>, params: Params = {}) =>
  new AppError(400, 'VALIDATION_FAILED', key, params, details);
export const unauthenticated = (key: MessageKey = 'auth.required') =>
  new AppError(401, 'UNAUTHENTICATED', key);
/**
 * 401 after a right password: the second factor is missing or wrong (docs/accounts.md); `data`
 * names the ways the person has (`methods`), so a client offers those.
 */
class TwoFactorRequiredError extends AppError {
  override readonly data: { methods: SecondFactorMethod[] };
  constructor(key: MessageKey, methods: SecondFactorMethod[]) {
    super(401, 'TWO_FACTOR_REQUIRED', key);
    this.data = { methods };
  }
}
export const twoFactorRequired = (key: MessageKey, methods: SecondFactorMethod[]) =>
  new TwoFactorRequiredError(key, methods);
export const forbidden = failure(403, 'FORBIDDEN');
/** 403: a folder password protects the path; `data` names the folder whose password opens it. */
class FolderPasswordRequiredError extends AppError {
  override readonly data: { path: string; requiresPassword: true };
  constructor(path: string) {
    super(403, 'FS_PATH_PASSWORD_REQUIRED', 'fs_meta.password_required');
    this.data = { path, requiresPassword: true };
  }
}
export const folderPasswordRequired = (path: string) => new FolderPasswordRequiredError(path);
export const notFound = failure(404, 'NOT_FOUND');
/** 405: the method does not apply to what the path names (WebDAV PUT on a folder, MKCOL on a file). */
export const notAllowedHere = failure(405, 'CONFLICT');
export const conflict = failure(409, 'CONFLICT');
/** 409 naming the field that is taken. */
export const conflictingFields = (key: MessageKey, details: Record<string, MessageKey>) =>
  new AppError(409, 'CONFLICT', key, {}, details);
export const gone = failure(410, 'GONE');
/** 411: a part upload must say its length before its bytes. */
export const lengthRequired = failure(411, 'VALIDATION_FAILED');
/** 412: an `If-…` condition or an expected version did not hold. */
export const preconditionFailed = failure(412, 'PRECONDITION_FAILED');
export const tooLarge = failure(413, 'PAYLOAD_TOO_LARGE');
export const payloadTooLarge = (limit: string) => tooLarge('common.body_too_large', { limit });
/** An upload over the size limit: its declared size, or (a stream of unknown size) only the limit. */
export const uploadTooLarge = (limit: number, size?: number) =>
  size === undefined
    ? tooLarge('uploads.too_large_stream', { limit: formatBytes(limit) })
    : tooLarge('uploads.too_large', { limit: formatBytes(limit), size: formatBytes(size) });
export const unsupportedType = failure(415, 'VALIDATION_FAILED');
export const rangeNotSatisfiable = failure(416, 'VALIDATION_FAILED');
/** 416 for a file of `size` bytes, with the `Content-Range` that tells the client its size. */
export const rangeOutside = (key: MessageKey, size: number) =>
  new AppError(416, 'VALIDATION_FAILED', key, {}, undefined, { 'Content-Range': `bytes */${size}` });
export const locked = failure(423, 'LOCKED');
/** 460 (tus 1.0 checksum extension): the bytes sent do not match the checksum sent with them. */
export const checksumMismatch = failure(460, 'VALIDATION_FAILED');
export const requestTimeout = failure(408, 'REQUEST_TIMEOUT');
/** 499 (nginx's code): the client went away before the answer was made; it is never read. */
export const clientGone = failure(499, 'VALIDATION_FAILED');
export const internal = failure(500, 'INTERNAL');
/** 501: a variant of a request this server does not offer (oEmbed's `format=xml`). */
export const notImplemented = failure(501, 'VALIDATION_FAILED');
export const upstreamFailed = failure(502, 'UPSTREAM_UNAVAILABLE');
/** 502: the storage answered, but not as it should (a presigned PUT refused). */
export const storageFailed = failure(502, 'STORAGE_UNAVAILABLE');
export const storageUnavailable = failure(503, 'STORAGE_UNAVAILABLE');
/** 503: a service sign-in depends on (an LDAP directory) does not answer. */
export const upstreamUnavailable = failure(503, 'UPSTREAM_UNAVAILABLE');
export const upstreamTimeout = failure(504, 'UPSTREAM_TIMEOUT');
/** 503 while this instance drains: a balancer retries elsewhere at once. */
export const shuttingDown = () =>
  new AppError(503, 'SHUTTING_DOWN', 'system.shutting_down', {}, undefined, { 'Retry-After': '1' });
export const rateLimited = (retryAfterSeconds: number, key: MessageKey = 'common.rate_limited') =>
  new AppError(429, 'RATE_LIMITED', key, { seconds: retryAfterSeconds }, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
