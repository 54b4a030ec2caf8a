/**
 * The WebDAV driver's HTTP side: one keep-alive agent per driver over node:http / node:https (a
 * certificate that does not verify is refused unless the config says to skip the check), Basic
 * auth sent with every request, driver paths turned into URLs below the configured folder and
 * answers' hrefs back into names, and answer bodies as web streams. Every socket failure leaves
 * here as a StorageError (webdav-errors.ts).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { type Readable, pipeline } from 'node:stream';
import { webBody } from '../../../lib/node-body.ts';
import { StorageError } from '../../driver.ts';
import { driverPath, pathSegments } from '../../driver-path.ts';
import { networkError } from './webdav-errors.ts';
import type { WebdavDriverConfig } from './webdav-settings.ts';
import type { WebdavTuning } from './webdav-tuning.ts';

export interface SendOptions {
  headers?: Record<string, string>;
  /** A small body sent whole (PROPFIND's XML). */
  text?: string;
  /** A streamed body (PUT); sent chunked unless `contentLength` is given. */
  stream?: Readable;
  contentLength?: number;
  /** Ask for the URL of a collection (a trailing slash), as MKCOL wants. */
  collection?: boolean;
  /** Operation name for error messages. */
  op: string;
}

export class WebdavClient {
  private readonly agent: http.Agent;
  /** Connections of their own for streamed bodies (see the constructor). */
  private readonly streamAgent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly origin: string;
  /** The configured folder's path segments (decoded): the endpoint's path, then `rootFolder`. */
  readonly rootSegments: readonly string[];
  private readonly authorization: string;
  private readonly socketTimeoutMs: number;

  constructor(config: WebdavDriverConfig, tuning: WebdavTuning) {
    let endpoint: URL;
    let base: string[];
    try {
      endpoint = new URL(config.endpoint);
      base = endpoint.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch (error) {
      throw new StorageError('UNAVAILABLE', 'the WebDAV endpoint is not a URL', { cause: error });
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new StorageError('UNAVAILABLE', 'the WebDAV endpoint must be an http or https URL');
    }
    this.origin = endpoint.origin;
    // The folder inside the endpoint takes the same rules as any driver path: no "..", no escape.
    const folder = pathSegments(driverPath(`/${config.rootFolder ?? ''}`));
    this.rootSegments = [...base, ...folder];
    const options = { keepAlive: true, maxSockets: tuning.maxSockets, timeout: tuning.socketTimeoutMs };
    // A streamed body goes on a connection of its own: on a kept-alive one the server may have
    // closed meanwhile (after its request limit, or idle), the body's first bytes would be lost and
    // the request could not be sent again. Requests without a streamed body reuse connections.
    const fresh = { ...options, keepAlive: false };
    if (endpoint.protocol === 'https:') {
      this.transport = https;
      const tls = { rejectUnauthorized: !config.tlsInsecureSkipVerify };
      this.agent = new https.Agent({ ...options, ...tls });
      this.streamAgent = new https.Agent({ ...fresh, ...tls });
    } else {
      this.transport = http;
      this.agent = new http.Agent(options);
      this.streamAgent = new http.Agent(fresh);
    }
    // Credentials written into the URL itself are never used (nor sent): only the config's.
    this.authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
    this.socketTimeoutMs = tuning.socketTimeoutMs;
  }

  /** The absolute URL of a driver path (already normalised), a collection's with a trailing slash. */
  url(path: string, collection = false): string {
    const segments = [...this.rootSegments, ...pathSegments(path)];
    const tail = collection || segments.length === 0 ? '/' : '';
    return `${this.origin}/${segments.map(encodeURIComponent).join('/')}${tail}`;
  }

  /**
   * For the folder `dir`: the name each answer's href gives inside it — '' for the folder itself,
   * null for anything that is neither it nor directly inside it (or an href that does not decode).
   * Hrefs may be paths or absolute URLs, escaped as each server likes; they are compared decoded.
   */
  namesIn(dir: string): (href: string) => string | null {
    const dirSegments = [...this.rootSegments, ...pathSegments(dir)];
    const depth = dirSegments.length;
    return (href) => {
      let pathname = href;
      if (!href.startsWith('/')) {
        try {
          const url = new URL(href, `${this.origin}/`);
          if (url.origin !== this.origin) return null;
          pathname = url.pathname;
        } catch {
          return null;
        }
      }
      const segments = pathname.split('/').filter((s) => s !== '');
      if (segments.length !== depth && segments.length !== depth + 1) return null;
      try {
        for (let i = 0; i < depth; i++) {
          if (decodeURIComponent(segments[i]!) !== dirSegments[i]) return null;
        }
        return segments.length === depth ? '' : decodeURIComponent(segments[depth]!);
      } catch {
        return null;
      }
    };
  }

  /**
   * Sends one request and resolves with the answer (its body unread). A streamed body resolves
   * once it is all sent and answered, or as soon as the server answers with an error status. A
   * request without a streamed body is sent again once when a kept-alive socket turns out closed.
   */
  send(method: string, path: string, options: SendOptions): Promise<IncomingMessage> {
    const attempt = (mayRetry: boolean): Promise<IncomingMessage> =>
      new Promise((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: this.authorization, ...options.headers };
        if (options.text !== undefined) {
          headers['Content-Type'] = 'application/xml; charset=utf-8';
          headers['Content-Length'] = String(Buffer.byteLength(options.text));
        } else if (options.contentLength !== undefined) {
          headers['Content-Length'] = String(options.contentLength);
        }
        const req = this.transport.request(this.url(path, options.collection), {
          method,
          agent: options.stream ? this.streamAgent : this.agent,
          headers,
          timeout: this.socketTimeoutMs,
        });
        let settled = false;
        const fail = (error: unknown): void => {
          if (settled) return;
          settled = true;
          reject(networkError(error, options.op, path));
        };
        req.on('timeout', () =>
          req.destroy(Object.assign(new Error('socket timed out'), { code: 'ETIMEDOUT' })),
        );
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (!settled && mayRetry && req.reusedSocket && error.code === 'ECONNRESET') {
            settled = true;
            attempt(false).then(resolve, reject);
            return;
          }
          fail(error);
        });
        if (!options.stream) {
          req.on('response', (res) => {
            settled = true;
            resolve(res);
          });
          req.end(options.text);
          return;
        }
        let answer: IncomingMessage | undefined;
        let sent = false;
        const done = (): void => {
          if (settled || !answer || (!sent && answer.statusCode! < 300)) return;
          settled = true;
          resolve(answer);
          // Refused before the body was all sent: stop sending it (the socket goes with it).
          if (!sent) options.stream!.destroy();
        };
        req.on('response', (res) => {
          answer = res;
          done();
        });
        pipeline(options.stream, req, (error) => {
          if (error) {
            // The body's own failure (a ByteLimit's, the caller's stream) is the one to report.
            if (!settled) {
              settled = true;
              reject(networkError(error, options.op, path));
            }
            return;
          }
          sent = true;
          done();
        });
      });
    return attempt(!options.stream);
  }

  /** Releases every socket. */
  close(): void {
    this.agent.destroy();
    this.streamAgent.destroy();
  }
}

/** Reads and drops an answer's body (so its socket can serve the next request). */
export async function drain(res: IncomingMessage): Promise<void> {
  res.resume();
  await new Promise<void>((resolve) => {
    if (res.complete) return resolve();
    res.once('end', resolve);
    res.once('close', resolve);
    res.once('error', () => resolve());
  });
}

/**
 * An answer's body as a web stream (lib/node-body.ts): `skip` bytes dropped first (a server that
 * ignored Range), then exactly `length` bytes. A body that ends early or breaks fails with
 * UNAVAILABLE, reason 'unreachable'.
 */
export function answerBody(
  res: IncomingMessage,
  window: { skip: number; length: number },
  op: string,
  path: string,
): ReadableStream<Uint8Array> {
  const reader = webBody(res, { length: window.skip + window.length }).getReader();
  let skip = window.skip;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            if (skip >= value.length) {
              skip -= value.length;
              continue;
            }
            controller.enqueue(skip > 0 ? value.subarray(skip) : value);
            skip = 0;
            return;
          }
        } catch (error) {
          controller.error(brokenAnswer(error, op, path));
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A failure while an answer's body streams in: UNAVAILABLE (a StorageError is kept as it is). */
export function brokenAnswer(error: unknown, op: string, path: string): unknown {
  const mapped = networkError(error, op, path);
  if (mapped instanceof StorageError) return mapped;
  return new StorageError('UNAVAILABLE', `${op} ${path}: the answer broke off`, {
    cause: error,
    reason: 'unreachable',
  });
}
