/**
 * GET|HEAD /api/file-view/:slug and /api/file-download/:slug: the bytes of a share.
 *
 * Proxy mode (`use_proxy=1`) streams from the storage driver with Range (one range → 206, none we
 * serve → the whole file, past the end → 416), ETag and Last-Modified, If-None-Match /
 * If-Modified-Since (304) and If-Range. Direct mode answers 302 to a presigned URL that lives at most
 * five minutes. Either way the view is counted only by a request that delivers bytes.
 */
import type { Context } from 'hono';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { publicOrigin, rebaseUrl } from '../../http/public-origin.ts';
import { parseRangeHeader, rangeForSize } from '../../storage/byte-range.ts';
import { contentDisposition } from '../../storage/content-disposition.ts';
import {
  type ByteRange,
  type Entry,
  isStorageError,
  type ReadResult,
  type StorageDriver,
} from '../../storage/driver.ts';
import { DIRECT_URL_SECONDS, type FilesService } from './files.service.ts';
import { type ServeRoute, servingHeaders } from './files.serving.ts';

type OriginConfig = Pick<Config, 'publicUrl' | 'trustProxyHops'>;

export async function deliverFile(
  c: Context<AppEnv>,
  files: FilesService,
  config: OriginConfig,
  route: ServeRoute,
  credentials: { token?: string | undefined; password?: string | undefined },
): Promise<Response> {
  const access = await files.access(c.req.param('slug') ?? '', {
    token: credentials.token,
    password: credentials.password,
    clientIp: c.get('clientIp'),
  });
  const { row } = access;
  const serve = servingHeaders(row.filename, row.mimetype, route);
  const driver = await files.driverFor(row);
  const head = c.req.method === 'HEAD';

  if (!row.use_proxy && !head && driver.presignGet) {
    const url = await storageCall(() =>
      driver.presignGet!(row.storage_path, {
        expiresIn: DIRECT_URL_SECONDS,
        filename: row.filename,
        disposition: serve.disposition,
        contentType: serve.contentType,
      }),
    );
    await files.countView(access, DIRECT_URL_SECONDS);
    return new Response(null, {
      status: 302,
      headers: { Location: rebaseUrl(url, files.internalBaseUrl, publicOrigin(c, config)) },
    });
  }

  const headers = new Headers({
    'Content-Type': serve.contentType,
    'Content-Disposition': contentDisposition(serve.disposition, row.filename),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (serve.sandbox) headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
  const validators = (meta: { etag?: string | undefined; lastModified?: Date | null | undefined }) => {
    if (meta.etag) headers.set('ETag', meta.etag);
    if (meta.lastModified) headers.set('Last-Modified', meta.lastModified.toUTCString());
  };

  const release = files.beginDelivery(row.id);
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
      entry = await storageCall(() => driver.stat(row.storage_path));
      if (entry.isDirectory) throw notFound('files.object_missing');
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
    if (range === 'unsatisfiable') return await unsatisfiable(entry, driver, row.storage_path);
    try {
      result = await storageCall(() => driver.read(row.storage_path, range ? { range } : {}));
    } catch (error) {
      if (error instanceof AppError && error.status === 416) {
        return await unsatisfiable(entry, driver, row.storage_path);
      }
      throw error;
    }
    const { usedUp } = await files.countView(access);
    validators(result);
    headers.set('Content-Length', String(result.contentLength));
    if (result.range) {
      headers.set('Content-Range', `bytes ${result.range.start}-${result.range.end}/${result.size}`);
    }
    const body = untilEnd(result.body, () => {
      release();
      if (usedUp) files.retire(row.id, 'object');
    });
    streaming = true;
    return new Response(body, { status: result.range ? 206 : 200, headers });
  } finally {
    // Every answer but the streaming one is done with the share here.
    if (!streaming) {
      release();
      await result?.body.cancel().catch(() => undefined);
    }
  }
}

/** 416 with the object's size, as RFC 9110 asks. */
async function unsatisfiable(entry: Entry | undefined, driver: StorageDriver, path: string): Promise<never> {
  const size = (entry ?? (await storageCall(() => driver.stat(path)))).size;
  throw new AppError(416, 'VALIDATION_FAILED', 'files.range_not_satisfiable', {}, undefined, {
    'Content-Range': `bytes */${size}`,
  });
}

/** Storage failures as answers: a missing object 404, an unreachable backend 503, a bad range 416. */
async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStorageError(error, 'NOT_FOUND') || isStorageError(error, 'IS_A_DIRECTORY')) {
      throw notFound('files.object_missing');
    }
    if (isStorageError(error, 'INVALID_RANGE')) {
      throw new AppError(416, 'VALIDATION_FAILED', 'files.range_not_satisfiable');
    }
    if (isStorageError(error, 'UNAVAILABLE') || isStorageError(error, 'FORBIDDEN')) {
      throw new AppError(503, 'STORAGE_UNAVAILABLE', 'files.storage_unavailable');
    }
    throw error;
  }
}

const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/** RFC 9110 §13.1.2–3: If-None-Match (weak comparison) first; If-Modified-Since only without it. */
function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  meta: { etag?: string | undefined; lastModified?: Date | null | undefined },
): boolean {
  if (ifNoneMatch !== undefined) {
    if (!meta.etag) return false;
    if (ifNoneMatch.trim() === '*') return true;
    return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(meta.etag!));
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
