/**
 * Headers every `/api` answer carries — CORS (docs/architecture.md, "The HTTP edge": the origins of
 * CORS_ORIGINS, never with credentials), `nosniff`, `Referrer-Policy: no-referrer`, and
 * `Cache-Control: no-store` unless the route chose otherwise — and the answer to CORS preflights.
 *
 * They join the request's common answer headers before the route runs (http/answer.ts explains
 * why they are not set on the finished answer, as hono/cors does).
 */
import { LANG_HEADER } from '@cubby/shared';
import type { MiddlewareHandler } from 'hono';
import { answer } from './answer.ts';
import type { AppEnv } from './context.ts';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** The tus protocol's request headers (modules/tus; docs/api.md, "Resumable uploads (tus)"). */
const TUS_REQUEST_HEADERS =
  'Tus-Resumable, Upload-Length, Upload-Defer-Length, Upload-Metadata, Upload-Offset, Upload-Checksum, Upload-Concat';
const ALLOW_HEADERS = `Authorization, Content-Type, Accept-Language, ${LANG_HEADER}, X-Request-Id, Range, If-None-Match, If-Modified-Since, If-Range, X-Custom-Auth-Key, X-Upload-Request-Token, X-FS-Path-Token, X-FS-Path-Tokens, ${TUS_REQUEST_HEADERS}`;
/** …and its answer headers, with where a finished tus upload went. */
const TUS_ANSWER_HEADERS =
  'Location, Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, Cubby-Share-Url, Cubby-Path';
const EXPOSE_HEADERS = `ETag, Content-Disposition, Content-Range, Content-Length, Accept-Ranges, X-Request-Id, Retry-After, ${TUS_ANSWER_HEADERS}`;

export function apiHeaders(corsOrigins: '*' | readonly string[]): MiddlewareHandler<AppEnv> {
  const allowedOrigin = (origin: string | undefined): string | undefined => {
    if (corsOrigins === '*') return '*';
    return origin && corsOrigins.includes(origin) ? origin : undefined;
  };

  return async (c, next) => {
    const headers = c.get('headers');
    const origin = allowedOrigin(c.req.header('origin'));
    if (origin) headers['access-control-allow-origin'] = origin;
    if (corsOrigins !== '*') headers['vary'] = 'Origin';

    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      if (!origin) return answer(c, null, 204);
      return answer(c, null, 204, {
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '86400',
      });
    }

    if (origin) headers['access-control-expose-headers'] = EXPOSE_HEADERS;
    headers['x-content-type-options'] = 'nosniff';
    headers['referrer-policy'] = 'no-referrer';
    headers['cache-control'] = 'no-store';
    await next();
  };
}
