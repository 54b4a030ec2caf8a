/**
 * Request bodies: how large and how slow they may be, and who reads them. The one middleware every
 * request with a body passes through:
 *
 * - Small bodies (JSON, pastes): over the route's size limit → 413 (by Content-Length before a
 *   byte is read, else as soon as it runs over), and the whole body must arrive within `timeoutMs`
 *   of the request's start → 408, so a body trickling in cannot hold a request (and its memory)
 *   open, not even on the unauthenticated login route.
 * - Streamed uploads (`streaming` paths) have no limit on their total time but a minimum rate:
 *   fewer than `minBytes` arriving in `windowMs` of waiting for the client errors the body with
 *   408, and the route cleans up as for any broken body. Time the server itself spends not reading
 *   (storage slower than the client) never counts.
 * - The route reads the body when it wants it, through `c.req.raw` as usual; a body refused by its
 *   headers alone (401, 403) is never read.
 * - Served by node-server.ts, the body is read from Node's request directly and a route that stops
 *   reading never destroys the connection: the answer can still be sent, and the server closes the
 *   connection lingering. 100 Continue goes out when the body is first read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { webBody } from '../lib/node-body.ts';
import type { AppEnv } from './context.ts';
import { AppError, badRequest, payloadTooLarge, requestTimeout } from '../errors/app-error.ts';
import { sendContinue } from './node-server.ts';

export interface BodyLimits {
  /** A small body must arrive whole within this time. */
  timeoutMs: number;
  /** A streamed body must bring at least this many bytes… */
  minBytes: number;
  /** …in every stretch of this much time the server waits for it. */
  windowMs: number;
}

export interface RequestBodyOptions {
  limits: BodyLimits;
  /** Paths whose bodies are streamed to storage; their routes hold them to their own size limits. */
  streaming: (path: string) => boolean;
  /** The size limit of a small body on this path, and how the 413 names it. */
  maxBytes: (path: string) => { bytes: number; label: string };
}

const bodyTimeout = (limits: BodyLimits) =>
  requestTimeout('common.body_timeout', { seconds: seconds(limits.timeoutMs) });
const tooSlow = (limits: BodyLimits) =>
  requestTimeout('common.body_too_slow', {
    bytes: `${Math.round(limits.minBytes / 1024)} KiB`,
    seconds: seconds(limits.windowMs),
  });
const seconds = (ms: number) => Math.round(ms / 100) / 10;
/** The client went away, or its body broke off: nobody may read the answer, but it is no 500. */
const incomplete = () => badRequest('common.body_incomplete');

export function requestBodies(options: RequestBodyOptions): MiddlewareHandler<AppEnv> {
  const { limits } = options;
  const withBody: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { source, arrived } = bodyOf(c);
    if (!source) return next();
    let rule: Rule;
    if (options.streaming(c.req.path)) {
      rule = { rate: limits };
    } else {
      const max = options.maxBytes(c.req.path);
      const declared = c.req.header('content-length');
      if (declared && /^\d+$/.test(declared) && Number(declared) > max.bytes) {
        await source.cancel();
        throw payloadTooLarge(max.label);
      }
      rule = { deadline: limits, max };
    }
    // The route reads the body if and when it wants it: one refused by its headers (401, 403) is
    // never read.
    const body = guarded(source, rule, arrived);
    replaceBody(c, body.stream);
    try {
      return await next();
    } finally {
      // What the route left unread is no longer waited for (the connection closes, lingering).
      await body.stop();
    }
  };
  // Not async for reads: they are most requests, and have no body.
  return (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : withBody(c, next));
}

/**
 * The request's body as a stream (null when it has none), and whether it has all arrived, read or
 * not (unknown outside Node's server: false).
 */
function bodyOf(c: Context<AppEnv>): { source: ReadableStream<Uint8Array> | null; arrived: () => boolean } {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  const incoming = env?.incoming;
  const outgoing = env?.outgoing;
  if (!incoming || !outgoing) return { source: c.req.raw.body, arrived: () => false };
  const length = incoming.headers['content-length'];
  if ((length === undefined || length === '0') && incoming.headers['transfer-encoding'] === undefined) {
    return { source: null, arrived: () => true };
  }
  return {
    source: webBody(incoming, { letGoOnCancel: true, onFirstPull: () => sendContinue(incoming, outgoing) }),
    arrived: () => incoming.complete,
  };
}

/** The request the routes see, with `body` in place of the original one. */
function replaceBody(c: Context<AppEnv>, body: ReadableStream<Uint8Array> | Uint8Array): void {
  const raw = c.req.raw;
  c.req.raw = new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body: body as BodyInit,
    signal: raw.signal,
    duplex: 'half',
  } as RequestInit);
}

/** A small body: whole within the deadline, at most `max` bytes. A streamed one: a minimum rate. */
type Rule = { deadline: BodyLimits; max: { bytes: number; label: string } } | { rate: BodyLimits };

/**
 * `source` held to its rule: a body that breaks it cancels the source and errors the stream with
 * the AppError to answer (408, 413); a source that fails (the client went away) errors it with a
 * 400. `stop` ends the watch and lets go of the source.
 */
function guarded(
  source: ReadableStream<Uint8Array>,
  rule: Rule,
  arrived: () => boolean,
): { stream: ReadableStream<Uint8Array>; stop: () => Promise<void> } {
  const reader = source.getReader();
  // A broken rule fails the read in progress, or the next one. (Not a race against one long-lived
  // promise: every race would leave a reaction on it holding its chunk until the request ends, so a
  // whole upload would stay in memory.)
  let broken: AppError | undefined;
  let interrupt: ((error: AppError) => void) | undefined;
  const cut = (error: AppError) => {
    broken ??= error;
    interrupt?.(error);
  };
  let timer: NodeJS.Timeout;
  let waitingSince: number | undefined;
  let waited = 0;
  let windowBytes = 0;
  let total = 0;
  if ('deadline' in rule) {
    // A body that has all arrived is not late, however long the route takes to read it.
    timer = setTimeout(() => arrived() || cut(bodyTimeout(rule.deadline)), rule.deadline.timeoutMs);
  } else {
    const { windowMs, minBytes } = rule.rate;
    // Only time spent waiting for the client counts, checked a few times per window.
    timer = setInterval(
      () => {
        const now = performance.now();
        if (waitingSince !== undefined) {
          waited += now - waitingSince;
          waitingSince = now;
        }
        if (waited < windowMs) return;
        if (windowBytes < minBytes) return cut(tooSlow(rule.rate));
        waited = 0;
        windowBytes = 0;
      },
      Math.max(10, Math.min(1000, windowMs / 4)),
    );
  }
  timer.unref();
  let done = false;
  const stop = () => {
    done = true;
    clearTimeout(timer);
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        waitingSince = performance.now();
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          if (broken) throw broken;
          result = await new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
            interrupt = reject;
            reader.read().then(resolve, reject);
          });
        } catch (error) {
          stop();
          await reader.cancel().catch(() => undefined);
          controller.error(error instanceof AppError ? error : incomplete());
          return;
        } finally {
          interrupt = undefined;
          if (waitingSince !== undefined) waited += performance.now() - waitingSince;
          waitingSince = undefined;
        }
        if (result.done) {
          stop();
          controller.close();
          return;
        }
        windowBytes += result.value.length;
        total += result.value.length;
        if ('max' in rule && total > rule.max.bytes) {
          stop();
          await reader.cancel().catch(() => undefined);
          controller.error(payloadTooLarge(rule.max.label));
          return;
        }
        controller.enqueue(result.value);
      },
      async cancel(reason) {
        stop();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    stop: async () => {
      if (done) return;
      stop();
      await reader.cancel().catch(() => undefined);
    },
  };
}
