/**
 * Streams one stored object as an HTTP answer, for the share routes and the fs download alike: Range
 * (one range → 206, none we serve → the whole file, past the end → 416), ETag and Last-Modified,
 * If-None-Match / If-Modified-Since (304) and If-Range, HEAD without a body. The caller decides the
 * type and disposition (modules/files/files.serving.ts) and may hook the moment bytes start to go out.
 */
import { etagListHas } from '@cubby/shared';
import { AppError, notFound, rangeOutside } from '../errors/app-error.ts';
import { asStorageAnswer } from './storage-answers.ts';
import type { MessageKey } from '../errors/messages.ts';
import { parseRangeHeader, rangeForSize } from '../storage/byte-range.ts';
import { contentDisposition } from '../lib/content-disposition.ts';
import {
  type ByteRange,
  type Entry,
  isStorageError,
  type ReadResult,
  type StorageDriver,
} from '../storage/driver.ts';

/** The request an object is served for: its method and headers (a Hono context is one). */
export interface ServeRequest {
  req: { method: string; header(name: string): string | undefined };
}

/** How the object is offered: its type, inline or as an attachment, and whether it is sandboxed. */
export interface ServingHeaders {
  contentType: string;
  disposition: 'inline' | 'attachment';
  /** Whether the answer gets `Content-Security-Policy: sandbox`. */
  sandbox: boolean;
}

export interface ServeObjectOptions {
  driver: StorageDriver;
  /** Driver path of the object. */
  path: string;
  /** Name offered to the browser. */
  filename: string;
  serve: ServingHeaders;
  /** Message of the 404 when the object is not there. */
  missing: MessageKey;
  /** Runs when bytes are about to go out (not for 304, HEAD or 416); what it returns runs when the body ends. */
  delivering?: () => Promise<(() => void) | undefined>;
  /** Runs once the request is done with the object, whether bytes went or not. */
  done?: () => void;
}

export async function serveObject(c: ServeRequest, options: ServeObjectOptions): Promise<Response> {
  const { driver, path, serve, missing } = options;
  const call = <T>(run: () => Promise<T>) => objectCall(run, missing);
  const headers = new Headers({
    'Content-Type': serve.contentType,
    'Content-Disposition': contentDisposition(serve.disposition, options.filename),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (serve.sandbox) headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
  const validators = (meta: { etag?: string | undefined; lastModified?: Date | null | undefined }) => {
    if (meta.etag) headers.set('ETag', meta.etag);
    if (meta.lastModified) headers.set('Last-Modified', meta.lastModified.toUTCString());
  };

  const head = c.req.method === 'HEAD';
  let result: ReadResult | undefined;
  let streaming = false;
  try {
    const wanted = head ? null : parseRangeHeader(c.req.header('Range'));
    const ifNoneMatch = c.req.header('If-None-Match');
    const ifModifiedSince = c.req.header('If-Modified-Since');
    const ifRange = c.req.header('If-Range');
    const suffix = wanted !== null && wanted !== 'unsatisfiable' && 'suffix' in wanted;
    let entry: Entry | undefined;
    if (
      head ||
      ifNoneMatch !== undefined ||
      ifModifiedSince !== undefined ||
      ifRange !== undefined ||
      suffix
    ) {
      entry = await call(() => driver.stat(path));
      if (entry.isDirectory) throw notFound(missing);
      const meta = { etag: entry.etag, lastModified: entry.modified };
      validators(meta);
      if (notModified(ifNoneMatch, ifModifiedSince, meta)) {
        headers.delete('Content-Type');
        headers.delete('Content-Disposition');
        return new Response(null, { status: 304, headers });
      }
      if (head) {
        headers.set('Content-Length', String(entry.size));
        return new Response(null, { status: 200, headers });
      }
    }
    const requested = ifRange !== undefined && entry && !ifRangeMatches(ifRange, entry) ? null : wanted;
    const range = entry
      ? rangeForSize(requested, entry.size)
      : (requested as ByteRange | 'unsatisfiable' | null);
    if (range === 'unsatisfiable') return await unsatisfiable(entry, driver, path, missing);
    try {
      result = await call(() => driver.read(path, range ? { range } : {}));
    } catch (error) {
      if (error instanceof AppError && error.status === 416) {
        return await unsatisfiable(entry, driver, path, missing);
      }
      throw error;
    }
    const after = await options.delivering?.();
    validators(result);
    headers.set('Content-Length', String(result.contentLength));
    if (result.range) {
      headers.set('Content-Range', `bytes ${result.range.start}-${result.range.end}/${result.size}`);
    }
    const body = untilEnd(result.body, () => {
      options.done?.();
      after?.();
    });
    streaming = true;
    return new Response(body, { status: result.range ? 206 : 200, headers });
  } finally {
    // Every answer but the streaming one is done with the object here.
    if (!streaming) {
      options.done?.();
      await result?.body.cancel().catch(() => undefined);
    }
  }
}

/** 416 with the object's size, as RFC 9110 asks. */
async function unsatisfiable(
  entry: Entry | undefined,
  driver: StorageDriver,
  path: string,
  missing: MessageKey,
): Promise<never> {
  const size = (entry ?? (await objectCall(() => driver.stat(path), missing))).size;
  throw rangeOutside('files.range_not_satisfiable', size);
}

/** Storage failures as answers: a missing object 404 (`missing`), an unreachable backend 503, a bad range 416. */
export async function objectCall<T>(call: () => Promise<T>, missing: MessageKey): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // A share's object that is a folder is as missing as one that is gone.
    if (isStorageError(error, 'IS_A_DIRECTORY')) throw notFound(missing);
    throw asStorageAnswer(error, {
      NOT_FOUND: missing,
      INVALID_RANGE: 'files.range_not_satisfiable',
      UNAVAILABLE: 'files.storage_unavailable',
    });
  }
}

/** RFC 9110 §13.1.2–3: If-None-Match (weak comparison) first; If-Modified-Since only without it. */
function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  meta: { etag?: string | undefined; lastModified?: Date | null | undefined },
): boolean {
  if (ifNoneMatch !== undefined) {
    if (!meta.etag) return false;
    if (ifNoneMatch.trim() === '*') return true;
    return etagListHas(ifNoneMatch, meta.etag);
  }
  if (ifModifiedSince !== undefined && meta.lastModified) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(meta.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** RFC 9110 §13.1.5: a strong ETag match, or exactly the Last-Modified date. */
function ifRangeMatches(ifRange: string, entry: Entry): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    return (
      !value.startsWith('W/') &&
      entry.etag !== undefined &&
      !entry.etag.startsWith('W/') &&
      value === entry.etag
    );
  }
  const date = Date.parse(value);
  return (
    !Number.isNaN(date) &&
    entry.modified !== null &&
    Math.floor(entry.modified.getTime() / 1000) * 1000 === date
  );
}

/** The same bytes; `onEnd` runs once when the body is done, fails, or the client goes away. */
function untilEnd(body: ReadableStream<Uint8Array>, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}
