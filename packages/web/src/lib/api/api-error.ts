/**
 * The one error type every API call throws. `status` is the HTTP status (0 when no answer came
 * back), `code` the envelope's machine code (`UNAUTHENTICATED`, `CONFLICT`, …) or a client-side
 * one (`NETWORK`, `TIMEOUT`, `CANCELLED`, `BAD_RESPONSE`), and `message` is ready to show, in the
 * current UI language.
 */

export type ClientErrorCode = 'NETWORK' | 'TIMEOUT' | 'CANCELLED' | 'BAD_RESPONSE';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, string> | undefined;
  /** Seconds to wait before trying again, from a `Retry-After` header (429). */
  readonly retryAfterSeconds: number | undefined;
  /** The error envelope's `data`, when it carries some (e.g. 507 STORAGE_FULL: sizes). */
  readonly data: Record<string, unknown> | undefined;

  constructor(
    message: string,
    options: {
      status: number;
      code: string;
      details?: Record<string, string>;
      retryAfterSeconds?: number;
      data?: Record<string, unknown>;
    },
  ) {
    super(message);
    this.status = options.status;
    this.code = options.code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.data = options.data;
  }

  /** True when the request never got an answer (offline, timed out or cancelled). */
  get isTransport(): boolean {
    return this.status === 0;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
