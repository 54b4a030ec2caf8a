/**
 * The transport every API call goes through (docs/product.md §7, §8; docs/compatibility.md
 * §9.1, minus its bugs).
 *
 * - Base: the configured backend plus `/api` (see base-url.ts).
 * - Headers: `Authorization: Bearer <admin token>` or `ApiKey <key>` from the signed-in principal,
 *   and `X-Cubby-Lang` with the UI language, so server messages come back in it (the server ignores
 *   Accept-Language: its messages stay Chinese for CloudPaste clients unless asked otherwise).
 * - Answers: the JSON envelope is parsed; a body `code` other than 200/201/202 is an error even on
 *   HTTP 2xx. Every failure becomes an {@link ApiError} whose message follows the error catalogue
 *   of docs/product.md §8 in the current language.
 * - Offline copies: an answer the service worker replayed from its cache is reported to
 *   lib/offline/network-status.ts, so the header can say which time the page shows.
 * - 401: password checks, change-password, login and a wrong second factor (TWO_FACTOR_REQUIRED)
 *   only report; otherwise, with an admin token or an API key
 *   the session is ended through the auth bridge (the auth feature registers it, so this module does
 *   not depend on any feature).
 */
import type { ParseKeys } from 'i18next';
import { LANG_HEADER, type SuccessEnvelope } from '@cubby/shared';
import { getLanguage, i18n } from '../i18n/index.ts';
import { CACHED_AT_HEADER, OFFLINE_HEADER } from '../offline/offline-headers.ts';
import { PATH_TOKENS_HEADER, pathTokensHeader } from './path-tokens.ts';
import { noteOfflineCopy, noteServerAnswer } from '../offline/network-status.ts';
import { ApiError } from './api-error.ts';
import { getApiBaseUrl } from './base-url.ts';

export type Credential = { type: 'admin'; token: string } | { type: 'apikey'; key: string };

/** How the API client talks to the auth state without importing it. */
export interface AuthBridge {
  /** The credential of the signed-in principal, if any. */
  getCredential(): Credential | null;
  /** The server rejected `credential` (401): end that session. */
  onCredentialRejected(credential: Credential): void;
}

let authBridge: AuthBridge = { getCredential: () => null, onCredentialRejected: () => {} };

export function registerAuthBridge(bridge: AuthBridge): void {
  authBridge = bridge;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** A plain value is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Milliseconds before the call fails with "request timed out". */
  timeoutMs?: number;
  /** Send this credential instead of the signed-in one; `null` sends none. */
  credential?: Credential | null;
  /**
   * When false a 401 is only reported, never ends the session. Used while checking a key that is
   * being logged in with, and by logout itself.
   */
  handleUnauthorized?: boolean;
  /** Headers of this call beside the credential and the language (an upload request's access token). */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
const OK_CODES = new Set([200, 201, 202]);

const t = (key: ParseKeys, options?: Record<string, unknown>): string => String(i18n.t(key, options ?? {}));

function authorizationHeader(credential: Credential): string {
  return credential.type === 'admin' ? `Bearer ${credential.token}` : `ApiKey ${credential.key}`;
}

interface EnvelopeLike {
  code?: unknown;
  message?: unknown;
  error?: unknown;
  details?: unknown;
  data?: unknown;
}

function asEnvelope(body: unknown): EnvelopeLike | null {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as EnvelopeLike) : null;
}

function serverMessage(body: unknown): string | null {
  const message = asEnvelope(body)?.message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

function errorFields(body: unknown): {
  code?: string;
  details?: Record<string, string>;
  data?: Record<string, unknown>;
} {
  const envelope = asEnvelope(body);
  const code = typeof envelope?.error === 'string' ? envelope.error : undefined;
  const details =
    envelope?.details && typeof envelope.details === 'object'
      ? (envelope.details as Record<string, string>)
      : undefined;
  const data = asEnvelope(envelope?.data) ?? undefined;
  return { code, details, data: data as Record<string, unknown> | undefined };
}

/** What a 401 on this call means, by endpoint (docs/product.md §8). */
function unauthorizedKind(
  method: HttpMethod,
  path: string,
): 'password' | 'change-password' | 'login' | 'session' {
  if (method === 'POST' && (/^\/paste\/[^/]+$/.test(path) || /^\/public\/files\/[^/]+\/verify$/.test(path))) {
    return 'password';
  }
  // A share's Office preview link: 401 means its password is missing, never a session problem.
  if (method === 'GET' && /^\/office-preview\/[^/?]+(\?|$)/.test(path)) return 'password';
  if (path === '/admin/change-password') return 'change-password';
  if (path === '/admin/login' || path === '/public/passkeys/login') return 'login';
  return 'session';
}

/** File and upload endpoints, where a key may get a 401 for one item without being invalid. */
function isFileOrUploadEndpoint(path: string): boolean {
  return /^\/(?:upload|s3\/|url\/)/.test(path) || /(?:^|\/)files(?:\/|$)/.test(path);
}

/** Server messages that say "not allowed here" rather than "who are you" (zh and en). */
const ACCESS_DENIED_MESSAGE = /未授权访问|无权访问|unauthori[sz]ed access|no permission|not allowed/i;

function unauthorizedError(
  method: HttpMethod,
  path: string,
  body: unknown,
  credential: Credential | null,
  handleUnauthorized: boolean,
): ApiError {
  const message = serverMessage(body);
  const fields = errorFields(body);
  const make = (text: string) =>
    new ApiError(text, { status: 401, code: fields.code ?? 'UNAUTHENTICATED', ...fields });
  // A wrong or missing second factor (docs/accounts.md "Two-factor sign-in") is about the code just
  // typed, never the session: signing in, turning two-factor sign-in off, new recovery codes.
  if (fields.code === 'TWO_FACTOR_REQUIRED') return make(message ?? t('errors.unauthorized'));
  switch (unauthorizedKind(method, path)) {
    case 'password':
      return make(message ?? t('errors.wrongPassword'));
    case 'change-password':
      return make(message ?? t('errors.verificationFailed'));
    case 'login':
      return make(message ?? t('errors.invalidCredentials'));
    case 'session':
      break;
  }
  if (credential?.type === 'admin') {
    if (handleUnauthorized) authBridge.onCredentialRejected(credential);
    return make(t('errors.adminSessionExpired'));
  }
  if (credential?.type === 'apikey') {
    const accessDenied =
      isFileOrUploadEndpoint(path) &&
      message !== null &&
      (fields.code !== 'UNAUTHENTICATED' || ACCESS_DENIED_MESSAGE.test(message));
    if (accessDenied) return make(message);
    if (handleUnauthorized) authBridge.onCredentialRejected(credential);
    return make(t('errors.apiKeyInvalid'));
  }
  return make(t('errors.unauthorized'));
}

/** A `Retry-After` header in seconds (delta-seconds or an HTTP date), if present and sensible. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

function credentialHeaders(credential: Credential | null): Headers {
  const headers = new Headers({ [LANG_HEADER]: getLanguage() });
  if (credential) headers.set('Authorization', authorizationHeader(credential));
  // Folders opened by their password this visit (lib/api/path-tokens.ts).
  const tokens = pathTokensHeader();
  if (tokens) headers.set(PATH_TOKENS_HEADER, tokens);
  return headers;
}

/** The signed-in credential and the UI language as headers, for requests the page sends itself (XHR). */
export function requestHeaders(): Record<string, string> {
  return Object.fromEntries(credentialHeaders(authBridge.getCredential()));
}

/**
 * `fetch` of `<base>/api<path>` with the signed-in credential and the UI language, for bodies that
 * are not JSON answers (a text file the editor opens). The caller reads and checks the response.
 */
export function fetchWithCredential(path: string, signal?: AbortSignal): Promise<Response> {
  return fetch(getApiBaseUrl() + path, { headers: credentialHeaders(authBridge.getCredential()), signal });
}

/**
 * Sends one request to `<base>/api<path>` and returns the parsed body of a successful answer.
 * Throws {@link ApiError} for everything else.
 */
export async function sendRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const method = options.method ?? 'GET';
  const credential = options.credential === undefined ? authBridge.getCredential() : options.credential;
  const headers = credentialHeaders(credential);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  headers.set('Accept', 'application/json');
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', forwardAbort, { once: true });

  let response: Response;
  let parsed: unknown = null;
  try {
    response = await fetch(getApiBaseUrl() + path, { method, headers, body, signal: controller.signal });
    // An answer the service worker replayed from its cache while offline (lib/offline).
    if (response.headers.get(OFFLINE_HEADER) === '1')
      noteOfflineCopy(Number(response.headers.get(CACHED_AT_HEADER)));
    else noteServerAnswer();
    const contentType = response.headers.get('content-type') ?? '';
    try {
      parsed = contentType.includes('json') ? await response.json() : await response.text();
    } catch (error) {
      if (controller.signal.aborted) throw error;
      parsed = null;
    }
  } catch {
    if (timedOut) throw new ApiError(t('errors.timeout'), { status: 0, code: 'TIMEOUT' });
    if (controller.signal.aborted)
      throw new ApiError(t('errors.cancelled'), { status: 0, code: 'CANCELLED' });
    throw new ApiError(t('errors.network'), { status: 0, code: 'NETWORK' });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  const pathOnly = path.split('?')[0] ?? path;
  if (!response.ok) {
    const status = response.status;
    if (status === 401) {
      throw unauthorizedError(method, pathOnly, parsed, credential, options.handleUnauthorized ?? true);
    }
    const message = serverMessage(parsed);
    const fields = errorFields(parsed);
    if (status === 409) {
      throw new ApiError(message ?? t('errors.conflict'), {
        status,
        code: fields.code ?? 'CONFLICT',
        ...fields,
      });
    }
    throw new ApiError(message ?? t('errors.http', { status }), {
      status,
      code: fields.code ?? 'HTTP',
      ...fields,
      retryAfterSeconds: retryAfter(response.headers.get('Retry-After')),
    });
  }

  const envelope = asEnvelope(parsed);
  if (envelope && 'code' in envelope && !OK_CODES.has(Number(envelope.code))) {
    const fields = errorFields(parsed);
    const status = typeof envelope.code === 'number' ? envelope.code : response.status;
    throw new ApiError(serverMessage(parsed) ?? t('errors.requestFailed'), {
      status,
      code: fields.code ?? 'BAD_RESPONSE',
      ...fields,
    });
  }
  return parsed;
}

/** Like {@link sendRequest}, for endpoints that answer with the standard envelope. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<SuccessEnvelope<T>> {
  const body = await sendRequest(path, options);
  const envelope = asEnvelope(body);
  if (!envelope) {
    throw new ApiError(t('errors.requestFailed'), { status: 200, code: 'BAD_RESPONSE' });
  }
  return body as SuccessEnvelope<T>;
}

/** Shorthands returning only `data` of a successful envelope. */
export const api = {
  get: async <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    (await apiRequest<T>(path, { ...options, method: 'GET' })).data,
  post: async <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    (await apiRequest<T>(path, { ...options, method: 'POST', body })).data,
  put: async <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    (await apiRequest<T>(path, { ...options, method: 'PUT', body })).data,
  patch: async <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    (await apiRequest<T>(path, { ...options, method: 'PATCH', body })).data,
  delete: async <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    (await apiRequest<T>(path, { ...options, method: 'DELETE' })).data,
};
