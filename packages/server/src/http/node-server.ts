/**
 * The HTTP server around the app (main.ts, and tests that need real sockets). On top of
 * @hono/node-server it decides how connections end:
 *
 * - An answer sent before the request body has fully arrived (a refusal, a 413, a 408) says
 *   `Connection: close`, since the rest of the body will not be read as another request.
 * - Such a connection is not torn down at once: the answer goes out, the server half-closes, then
 *   reads and discards what the client still sends for a bounded time and amount before closing (a
 *   lingering close, as nginx does). Closing with unread bytes in the socket makes the kernel reset
 *   the connection, and a client still sending its body then gets ECONNRESET/EPIPE instead of the
 *   answer.
 * - `Expect: 100-continue` is answered only once the app starts reading the body (see
 *   request-body.ts), so a client refused by its headers never sends the body at all.
 * - A request body may take as long as it needs here (Node would cut it at 5 minutes); the app
 *   bounds each body itself (request-body.ts). Idle keep-alive connections are kept longer than
 *   common proxies and clients keep theirs, so a reused connection is not closed under them.
 * - `drainServer` (graceful shutdown): every answer from then on says `Connection: close`; the
 *   listener closes once no new connection came for a moment (the app refuses reads meanwhile, so a
 *   load balancer stops sending here: closing a listener resets the connections still waiting to be
 *   accepted, and a request whose body was on its way could not be retried elsewhere). Requests in
 *   flight finish. A keep-alive connection may still bring one request while others are in flight;
 *   once none is, the idle connections are closed.
 */
import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer, Socket } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

/** Idle keep-alive connections are kept longer than common proxies and clients keep theirs. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface LingerLimits {
  /** Longest a closing connection keeps discarding the body. */
  maxMs: number;
  /** Closed sooner when nothing arrives for this long. */
  idleMs: number;
  /** Closed sooner once this many bytes were discarded. */
  maxBytes: number;
}

export const DEFAULT_LINGER: LingerLimits = { maxMs: 30_000, idleMs: 5_000, maxBytes: 1024 * 1024 * 1024 };

export interface ServeOptions {
  fetch: (
    request: Request,
    env: { incoming: IncomingMessage; outgoing: ServerResponse },
  ) => Response | Promise<Response>;
  port: number;
  hostname?: string;
  linger?: LingerLimits;
}

/** What `drainServer` needs of a server made by `serveApp`. */
interface DrainHooks {
  /** Marks the server draining: each answer from now on ends its connection. */
  start(): void;
  /** From now on `whenIdle` runs each time no answer is under way (at once if none is). */
  whenIdle(whenIdle: () => void): void;
  /** When the last connection was accepted (ms since the epoch). */
  lastConnectionAt(): number;
}
const drainHooks = new WeakMap<Server, DrainHooks>();

/** How long no new connection must come before a draining server closes its listener, and the most it waits for that. */
export const LISTENER_QUIET = { quietMs: 250, maxMs: 3000 };

/** Requests that sent `Expect: 100-continue` and have not been told to go on yet. */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Tells a client waiting with `Expect: 100-continue` to send its body (once; no-op otherwise). */
export function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
}

export function serveApp(options: ServeOptions, onListening?: (info: AddressInfo) => void): Server {
  const limits = options.linger ?? DEFAULT_LINGER;
  let draining = false;
  let inFlight = 0;
  let onNoneInFlight: (() => void) | undefined;
  /**
   * An answer whose request body has not fully arrived closes the connection, lingering. The hook
   * sits on `writeHead`, which every answer passes through (explicitly or implicitly).
   */
  class Answer extends ServerResponse {
    constructor(req: IncomingMessage) {
      super(req);
      inFlight++;
      this.once('close', () => {
        if (--inFlight === 0) onNoneInFlight?.();
      });
    }

    override writeHead(...args: unknown[]): this {
      const req = this.req;
      // Draining: this answer is the connection's last (Node then ends it once the answer is sent).
      if (draining) this.shouldKeepAlive = false;
      if (!req.complete && hasBody(req)) {
        this.shouldKeepAlive = false;
        const socket = req.socket;
        // Node ends a `Connection: close` answer with `socket.destroySoon()`.
        if (socket) socket.destroySoon = () => lingeringClose(req, socket, limits);
      }
      return (super.writeHead as (...a: unknown[]) => this)(...args);
    }
  }
  const server = createAdaptorServer({
    fetch: options.fetch as Parameters<typeof createAdaptorServer>[0]['fetch'],
    // The app reads or leaves request bodies itself (request-body.ts); the adapter's own cleanup
    // would close a connection after 500 ms of draining, having announced keep-alive.
    autoCleanupIncoming: false,
    serverOptions: { ServerResponse: Answer as typeof ServerResponse },
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
  }) as Server;
  Object.assign(server, {
    requestTimeout: 0,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    headersTimeout: KEEP_ALIVE_TIMEOUT_MS + 1000,
  });
  // Without a listener Node answers 100 Continue before the app has looked at the request.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    server.emit('request', req, res);
  });
  server.listen(options.port, options.hostname, () => onListening?.(server.address() as AddressInfo));
  let lastConnectionAt = 0;
  server.on('connection', () => (lastConnectionAt = Date.now()));
  drainHooks.set(server, {
    start() {
      draining = true;
    },
    whenIdle(whenIdle) {
      onNoneInFlight = () => setImmediate(whenIdle);
      if (inFlight === 0) onNoneInFlight();
    },
    lastConnectionAt: () => lastConnectionAt,
  });
  return server;
}

/**
 * Graceful stop of a server made by `serveApp`: the listener closes once no new connection came for
 * `quiet.quietMs` (at most `quiet.maxMs` after the start; `onListenerClosed` then runs), requests in
 * flight go on to their end, each connection closes after its current answer, and idle ones once no
 * request is in flight. Resolves true once every connection is gone, or false after `timeoutMs`,
 * having cut the connections still open.
 */
export function drainServer(
  server: Server,
  timeoutMs: number,
  options: { quiet?: typeof LISTENER_QUIET; onListenerClosed?: () => void } = {},
): Promise<boolean> {
  const quiet = options.quiet ?? LISTENER_QUIET;
  const hooks = drainHooks.get(server);
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      clearInterval(look);
      server.closeAllConnections();
      resolve(false);
    }, timeoutMs);
    const closeListener = () => {
      clearInterval(look);
      // net's close, not http's: that one would also close the idle keep-alive connections now,
      // before a request already on its way over one of them arrives.
      NetServer.prototype.close.call(server, () => {
        clearTimeout(timer);
        resolve(true);
      });
      options.onListenerClosed?.();
      // Not before: a connection just accepted is idle until its request has arrived.
      hooks?.whenIdle(() => server.closeIdleConnections());
    };
    const look = setInterval(() => {
      const now = Date.now();
      const lastConnection = hooks?.lastConnectionAt() ?? 0;
      if (now - Math.max(lastConnection, started) >= quiet.quietMs || now - started >= quiet.maxMs)
        closeListener();
    }, 25);
    hooks?.start();
  });
}

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/** Half-closes after the answer, discards the rest of the body within `limits`, then closes. */
function lingeringClose(req: IncomingMessage, socket: Socket, limits: LingerLimits): void {
  if (req.complete) {
    Socket.prototype.destroySoon.call(socket);
    return;
  }
  socket.end();
  let discarded = 0;
  const close = () => {
    clearTimeout(overall);
    clearTimeout(idle);
    req.off('data', onData);
    socket.destroy();
  };
  const overall = setTimeout(close, limits.maxMs);
  const idle = setTimeout(close, limits.idleMs);
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) return close();
    idle.refresh();
  };
  // Whatever listened to the body before has let go of it; from here on it is thrown away.
  req.removeAllListeners('data');
  req.on('data', onData);
  req.once('end', close);
  req.once('error', close);
  socket.once('close', close);
  req.resume();
}
