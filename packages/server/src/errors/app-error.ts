/**
 * Errors as values with stable codes. Services throw an AppError built by the factories below; the
 * one renderer in error-handler.ts turns it into the envelope and HTTP status.
 */
import type { ErrorCode } from '@cubby/shared';
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

export const badRequest = (key: MessageKey, details?: Record<string, MessageKey>) =>
  new AppError(400, 'VALIDATION_FAILED', key, {}, details);
export const unauthenticated = (key: MessageKey = 'auth.required') =>
  new AppError(401, 'UNAUTHENTICATED', key);
export const forbidden = (key: MessageKey, params: Record<string, string> = {}) =>
  new AppError(403, 'FORBIDDEN', key, params);
export const notFound = (key: MessageKey) => new AppError(404, 'NOT_FOUND', key);
export const conflict = (key: MessageKey) => new AppError(409, 'CONFLICT', key);
export const gone = (key: MessageKey) => new AppError(410, 'GONE', key);
export const payloadTooLarge = (limit: string) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', 'common.body_too_large', { limit });
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'common.rate_limited', { seconds: retryAfterSeconds }, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
