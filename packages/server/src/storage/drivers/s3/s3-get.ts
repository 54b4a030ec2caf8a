/**
 * A streamed GET of a presigned object URL on a socket of its own: the S3 driver's read path.
 *
 * Why not the SDK (Node's HTTP client): its parser copies every body chunk and emits it through
 * the response stream, and that costs about as much CPU again as moving the bytes (bench/RESULTS.md,
 * "File shares"). Here the response head is parsed once and the socket itself becomes the body:
 * its chunks are handed on as the kernel delivers them.
 *
 * - Only a plain answer is taken: 200 or 206 with a Content-Length and no Transfer-Encoding.
 *   Anything else (an error, a redirect, a chunked body) is reported as `undefined`, and the caller
 *   asks again through the SDK, which maps errors in one place.
 * - The body stream ends after exactly Content-Length bytes and fails when the socket closes
 *   earlier (node-body.ts), so a cut transfer is never passed off as a whole file.
 * - Connections are kept alive: a body read to its exact end hands its socket back (`release`,
 *   which node-body.ts calls), and the next GET to the same origin takes it, so small reads do not
 *   pay a TCP and TLS handshake each. A cancelled or faulty body closes its socket. A kept socket
 *   that the storage closed in the meantime is retried once on a new connection (GET is safe to
 *   repeat); idle sockets close after a few seconds and never keep the process alive.
 * - The head must arrive within `headTimeoutMs`; after that no idle timeout applies (a client may
 *   pause a download as long as it likes), and TCP keep-alive probes find a dead peer.
 */
import net from 'node:net';
import type { Readable } from 'node:stream';
import tls from 'node:tls';

/** Largest response head accepted (S3 heads are well under 2 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
/** How long a kept connection waits for its next request, and how many wait per origin. */
const IDLE_MS = 4_000;
const MAX_IDLE_PER_ORIGIN = 16;

export interface PlainGetOptions {
  /** Inclusive byte range, as in a Range header. */
  range?: { start: number; end?: number };
  connectTimeoutMs: number;
  headTimeoutMs: number;
}

export interface PlainGetAnswer {
  status: 200 | 206;
  /** Lower-case header names; a repeated header's values are joined with ", " (so two lengths are no length). */
  headers: Record<string, string>;
  contentLength: number;
  /** The socket, positioned at the first body byte and paused. */
  body: Readable;
  /** Present when the connection may be reused: call it once the body has been read to its end. */
  release?: () => void;
}

/** Kept connections by origin, each with the function that takes back its idle listeners. */
const idle = new Map<string, Array<{ socket: net.Socket; wake: () => void }>>();

function park(origin: string, socket: net.Socket): void {
  const list = idle.get(origin) ?? [];
  if (socket.destroyed || list.length >= MAX_IDLE_PER_ORIGIN) {
    socket.destroy();
    return;
  }
  const entry = {
    socket,
    wake: () => {
      socket.off('data', drop).off('end', drop).off('timeout', drop).off('close', remove);
      socket.off('error', drop);
      socket.setTimeout(0);
      socket.pause();
      socket.ref();
    },
  };
  const remove = () => {
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0 && idle.get(origin) === list) idle.delete(origin);
  };
  // Bytes nobody asked for, the peer closing, an error or the idle time: the connection is done.
  const drop = () => {
    remove();
    socket.destroy();
  };
  socket.on('data', drop).on('end', drop).on('timeout', drop).on('error', drop).once('close', remove);
  socket.setTimeout(IDLE_MS);
  socket.unref();
  socket.resume();
  list.push(entry);
  idle.set(origin, list);
}

function unpark(origin: string): net.Socket | undefined {
  const list = idle.get(origin);
  for (let entry = list?.pop(); entry; entry = list?.pop()) {
    entry.wake();
    if (!entry.socket.destroyed) return entry.socket;
  }
  if (list?.length === 0) idle.delete(origin);
  return undefined;
}

/** The socket closed or failed before a byte of the answer came (on a kept connection: retry). */
class NoAnswer extends Error {}

function connect(url: URL, timeoutMs: number): Promise<net.Socket> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = secure
      ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }) })
      : net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connecting to ${url.host} timed out`));
    }, timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
    socket.once('error', fail);
  });
}

/** Parses a response head (without its blank line); undefined when it is not HTTP/1.x. */
function parseHead(
  head: string,
): { status: number; persistent: boolean; headers: Record<string, string> } | undefined {
  const lines = head.split('\r\n');
  const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status) return undefined;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const persistent = status[1] === '1' && !/(^|,)\s*close\s*($|,)/i.test(headers.connection ?? '');
  return { status: Number(status[2]), persistent, headers };
}

/**
 * Reads the response head off `socket`; resolves with the status and headers, the socket paused at
 * the first body byte. Interim 1xx answers are skipped.
 */
function readHead(
  socket: net.Socket,
  timeoutMs: number,
): Promise<{ status: number; persistent: boolean; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let buffered: Buffer = Buffer.alloc(0);
    let any = false;
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
      if (error) reject(error);
    };
    const timer = setTimeout(() => done(new Error('the storage answer timed out')), timeoutMs);
    const onError = (error: Error) => done(any ? error : new NoAnswer(error.message, { cause: error }));
    const onEnd = () =>
      done(new (any ? Error : NoAnswer)('the storage closed the connection before answering'));
    const onData = (chunk: Buffer) => {
      any = true;
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      for (;;) {
        const end = buffered.indexOf(HEAD_END);
        if (end < 0) {
          if (buffered.length > MAX_HEAD_BYTES) done(new Error('the storage answer head is too large'));
          return;
        }
        const parsed = parseHead(buffered.subarray(0, end).toString('latin1'));
        if (!parsed) return done(new Error('the storage did not answer in HTTP/1.1'));
        buffered = buffered.subarray(end + HEAD_END.length);
        if (parsed.status >= 100 && parsed.status < 200) continue;
        socket.pause();
        done();
        if (buffered.length) socket.unshift(buffered);
        return resolve(parsed);
      }
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.resume(); // a kept connection was paused
  });
}

/**
 * GETs `url` on a kept connection to its origin, else a new one; undefined (connection closed) when
 * the answer is not a plain 200/206 body.
 */
export async function plainGet(url: URL, options: PlainGetOptions): Promise<PlainGetAnswer | undefined> {
  const origin = `${url.protocol}//${url.host}`;
  for (;;) {
    const kept = unpark(origin);
    const socket = kept ?? (await connect(url, options.connectTimeoutMs));
    if (!kept) {
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 30_000);
    }
    try {
      return await exchange(socket, url, origin, options);
    } catch (error) {
      socket.destroy();
      // A kept connection the storage had closed meanwhile: nothing was answered, ask again.
      if (kept && error instanceof NoAnswer) continue;
      throw error;
    }
  }
}

async function exchange(
  socket: net.Socket,
  url: URL,
  origin: string,
  options: PlainGetOptions,
): Promise<PlainGetAnswer | undefined> {
  const range = options.range ? `Range: bytes=${options.range.start}-${options.range.end ?? ''}\r\n` : '';
  socket.write(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${range}` +
      'Accept-Encoding: identity\r\n\r\n',
  );
  const { status, persistent, headers } = await readHead(socket, options.headTimeoutMs);
  const length = headers['content-length'];
  const plain =
    (status === 200 || status === 206) &&
    headers['transfer-encoding'] === undefined &&
    length !== undefined &&
    /^\d+$/.test(length);
  if (!plain) {
    socket.destroy();
    return undefined;
  }
  const answer: PlainGetAnswer = { status, headers, contentLength: Number(length), body: socket };
  if (persistent) answer.release = () => park(origin, socket);
  return answer;
}
