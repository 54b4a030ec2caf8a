/**
 * Headers every `/api` answer carries — CORS (ARCHITECTURE §5: the origins of CORS_ORIGINS, never
 * with credentials), `nosniff`, `Referrer-Policy: no-referrer`, and `Cache-Control: no-store` unless
 * the route chose otherwise — and the answer to CORS preflights.
 *
 * The headers are prepared before the route runs, so they travel with the answer the route builds.
 * Setting them afterwards (as hono/cors and a post-`next()` `c.header()` do) makes Hono rebuild the
 * finished answer around a stream of its body, which cost more CPU than the rest of a paste read.
 * Answers a route builds by hand (streams from storage, fetched answers) get the missing ones after.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';
const ALLOW_HEADERS =
  'Authorization, Content-Type, Accept-Language, X-Request-Id, Range, If-None-Match, If-Modified-Since, If-Range';
const EXPOSE_HEADERS =
  'ETag, Content-Disposition, Content-Range, Content-Length, Accept-Ranges, X-Request-Id, Retry-After';

export function apiHeaders(corsOrigins: '*' | readonly string[]): MiddlewareHandler<AppEnv> {
  const allowedOrigin = (origin: string | undefined): string | undefined => {
    if (corsOrigins === '*') return '*';
    return origin && corsOrigins.includes(origin) ? origin : undefined;
  };

  return async (c, next) => {
    const prepared: [string, string][] = [];
    const origin = allowedOrigin(c.req.header('origin'));
    if (origin) prepared.push(['Access-Control-Allow-Origin', origin]);
    if (corsOrigins !== '*') prepared.push(['Vary', 'Origin']);

    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      for (const [name, value] of prepared) c.header(name, value);
      if (origin) {
        c.header('Access-Control-Allow-Methods', ALLOW_METHODS);
        c.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
        c.header('Access-Control-Max-Age', '86400');
      }
      return c.body(null, 204);
    }

    if (origin) prepared.push(['Access-Control-Expose-Headers', EXPOSE_HEADERS]);
    prepared.push(['X-Content-Type-Options', 'nosniff'], ['Referrer-Policy', 'no-referrer']);
    for (const [name, value] of prepared) c.header(name, value);
    c.header('Cache-Control', 'no-store');
    await next();

    let headers = c.res.headers;
    const missing = [...prepared, ['Cache-Control', 'no-store'] as [string, string]].filter(
      ([name]) => !headers.has(name),
    );
    if (missing.length === 0) return;
    try {
      for (const [name, value] of missing) headers.set(name, value);
    } catch {
      // A fetched answer's headers are immutable: answer with a copy (same body stream).
      const copy = new Response(c.res.body, c.res);
      headers = copy.headers;
      for (const [name, value] of missing) headers.set(name, value);
      c.res = undefined;
      c.res = copy;
    }
  };
}
