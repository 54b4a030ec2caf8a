/**
 * First middleware: a request id (kept from a sane incoming X-Request-Id, else new) on every log line
 * and in the answer, the answer language, the client address, and one access-log line per request.
 * The access log names the path without its query string and never any header.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { clientIp } from './client-ip.ts';
import type { AppEnv } from './context.ts';
import { pickLang } from './messages.ts';

export function requestContext(logger: Logger, trustProxyHops: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ reqId: requestId });
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('lang', pickLang(c.req.header('accept-language')));
    c.set('clientIp', clientIp(c, trustProxyHops));
    c.header('X-Request-Id', requestId);
    await next();
    log.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}
