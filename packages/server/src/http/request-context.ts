/**
 * First middleware: a request id (kept from a sane incoming X-Request-Id, else new) on every log line
 * and in the answer, the answer language (`X-Cubby-Lang`, see messages.ts), the client address, and one access-log line per request.
 * It also starts the request's common answer headers and completes answers built without them
 * (http/answer.ts).
 * The access log names the path without its query string and never any header.
 */
import { randomUUID } from 'node:crypto';
import { LANG_HEADER } from '@cubby/shared';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { completeHeaders } from './answer.ts';
import { clientIp } from './client-ip.ts';
import type { AppEnv } from './context.ts';
import { pickLang } from '../errors/messages.ts';

/** The request's child logger, built only when a handler logs (most requests log one line, below). */
function lazyChild(logger: Logger, reqId: string): Logger {
  let child: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, property) {
      child ??= logger.child({ reqId });
      const value = Reflect.get(child, property, child) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(child) : value;
    },
  });
}

export function requestContext(logger: Logger, trustProxyHops: number): MiddlewareHandler<AppEnv> {
  // The access line is built below from fixed fields only (no header, query string or body), so it
  // skips the logger's redaction pass, which would double its cost.
  const accessLog = logger.child({}, { redact: [] });
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('log', lazyChild(logger, requestId));
    c.set('lang', pickLang(c.req.header(LANG_HEADER)));
    c.set('clientIp', clientIp(c, trustProxyHops));
    c.set('headers', { 'x-request-id': requestId });
    await next();
    completeHeaders(c);
    accessLog.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}
