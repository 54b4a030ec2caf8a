/**
 * The HTTP side of the local driver's presigned URLs, mounted at `/api/storage/local`:
 *   GET|HEAD /:configId/get   download (Range, Content-Disposition)
 *   PUT      /:configId/put   whole-object upload
 *   PUT      /:configId/part  one part of a multipart upload
 * The signature, expiry, content type and declared length are checked before a byte of the body is
 * read; the size limit is enforced again while streaming, so a body that runs over is cut off with
 * 413 and leaves no file. Every answer allows any origin (these URLs are bearer capabilities, not
 * cookie-authenticated) and exposes ETag, so a browser can upload parts and read their ETags.
 */
import type { ErrorCode, ErrorEnvelope } from '@cubby/shared';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { documented } from '../../http/route-docs.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { isStorageError } from '../../vfs/objects.ts';
import {
  type LocalPresignOp,
  type LocalSignedParams,
  parseRangeHeader,
  rangeForSize,
  type ReadResult,
  type SignedLinks,
  type SignedObject,
} from '../../vfs/signed-links.ts';
import { STORAGE_STATUS } from '../../vfs/storage-answers.ts';

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Content-Length, Content-Range, Content-Disposition, Accept-Ranges',
};

/** Storage codes as these routes answer them. */

function fail(
  status: number,
  error: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body: ErrorEnvelope = { code: status, message, data: null, success: false, error };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=UTF-8', ...headers },
  });
}

function failFromError(error: unknown): Response {
  if (!isStorageError(error)) throw error;
  const { status, code } = STORAGE_STATUS[error.code];
  // A body abandoned mid-upload is not drained: the server closes the connection (http/node-server.ts).
  return fail(status, code, error.code);
}

/**
 * The presigned-URL routes for local storage configs; `links` checks each signed request
 * (vfs/signed-links.ts).
 */
export function localLinkRoutes(links: SignedLinks): Hono {
  const app = new Hono();

  const tag = 'Local storage (signed URLs)';
  const signed = 'Query: the signature and limits the URL was issued with (op, key, exp, size, sig, …).';

  app.options(
    '/:configId/:op',
    documented(
      { tag, summary: 'CORS preflight of a signed URL (any origin)', auth: 'none' },
      (c: Context) => {
        return new Response(null, {
          status: 204,
          headers: {
            ...CORS_HEADERS,
            'Access-Control-Allow-Methods': 'GET, HEAD, PUT, OPTIONS',
            'Access-Control-Allow-Headers':
              c.req.header('Access-Control-Request-Headers') ?? 'Content-Type, Range',
            'Access-Control-Max-Age': '86400',
          },
        });
      },
    ),
  );

  /** Signature, expiry and storage, checked before anything else; a Response means refused. */
  const authorise = async (
    c: Context,
    op: LocalPresignOp,
  ): Promise<{ params: LocalSignedParams; object: SignedObject } | Response> => {
    const opened = await links.open(op, c.req.param('configId') ?? '', (name) => c.req.query(name));
    if (opened.refused === 'unknown-storage') return fail(404, 'NOT_FOUND', 'unknown storage');
    if (opened.refused)
      return fail(403, 'FORBIDDEN', opened.refused === 'expired' ? 'link expired' : 'invalid signature');
    return opened;
  };

  /**
   * The declared length of an upload against the signed size, before the body is touched:
   * more is 413, a different length 400. Returns the size to enforce while streaming.
   */
  const uploadSize = (c: Context, signed: number | undefined): number | Response => {
    const header = c.req.header('Content-Length');
    const declared = header === undefined ? undefined : /^\d+$/.test(header) ? Number(header) : NaN;
    if (Number.isNaN(declared)) return fail(400, 'VALIDATION_FAILED', 'invalid Content-Length');
    if (signed === undefined) {
      return declared ?? fail(411, 'VALIDATION_FAILED', 'Content-Length required');
    }
    if (declared !== undefined && declared > signed) {
      return fail(413, 'PAYLOAD_TOO_LARGE', 'larger than the signed size');
    }
    if (declared !== undefined && declared !== signed) {
      return fail(400, 'VALIDATION_FAILED', 'size differs from the signed size');
    }
    return signed;
  };

  const bodyOf = (c: Context): ReadableStream<Uint8Array> =>
    c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

  app.on(
    ['GET', 'HEAD'],
    '/:configId/get',
    documented(
      {
        tag,
        summary: 'Downloads through a signed URL (Range)',
        description: signed,
        auth: 'none',
        produces: 'bytes',
      },
      async (c: Context) => {
        const auth = await authorise(c, 'get');
        if (auth instanceof Response) return auth;
        const { params, object } = auth;
        const headers: Record<string, string> = {
          ...CORS_HEADERS,
          'Content-Type': params.contentType || 'application/octet-stream',
          'Content-Disposition': contentDisposition(
            params.disposition ?? 'attachment',
            params.filename ?? '',
          ),
          'Accept-Ranges': 'bytes',
          'Cache-Control': 'private, no-cache',
          // Whatever the file holds, it never runs as a page of this origin.
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'X-Content-Type-Options': 'nosniff',
        };
        try {
          const entry = await object.stat();
          if (entry.isDirectory) return fail(404, 'NOT_FOUND', 'not a file');
          const range = rangeForSize(parseRangeHeader(c.req.header('Range')), entry.size);
          if (range === 'unsatisfiable') {
            return fail(416, 'VALIDATION_FAILED', 'range not satisfiable', {
              'Content-Range': `bytes */${entry.size}`,
            });
          }
          const meta = (r: Pick<ReadResult, 'etag' | 'lastModified'>) => {
            if (r.etag) headers.ETag = r.etag;
            if (r.lastModified) headers['Last-Modified'] = r.lastModified.toUTCString();
          };
          if (c.req.method === 'HEAD') {
            meta({ etag: entry.etag, lastModified: entry.modified ?? undefined });
            headers['Content-Length'] = String(entry.size);
            return new Response(null, { status: 200, headers });
          }
          const result = await object.read(range);
          meta(result);
          headers['Content-Length'] = String(result.contentLength);
          if (result.range) {
            headers['Content-Range'] = `bytes ${result.range.start}-${result.range.end}/${result.size}`;
          }
          return new Response(result.body, { status: result.range ? 206 : 200, headers });
        } catch (error) {
          if (isStorageError(error, 'INVALID_RANGE')) {
            return fail(416, 'VALIDATION_FAILED', 'range not satisfiable');
          }
          return failFromError(error);
        }
      },
    ),
  );

  app.put(
    '/:configId/put',
    documented(
      {
        tag,
        summary: 'Uploads a whole file through a signed URL (exactly the signed size)',
        description: signed,
        auth: 'none',
        upload: 'binary',
      },
      async (c: Context) => {
        const auth = await authorise(c, 'put');
        if (auth instanceof Response) return auth;
        const { params, object } = auth;
        if (
          (c.req.header('Content-Type') ?? '').trim().toLowerCase() !==
          (params.contentType ?? '').trim().toLowerCase()
        ) {
          return fail(403, 'FORBIDDEN', 'Content-Type differs from the signed one');
        }
        if (params.size === undefined) return fail(403, 'FORBIDDEN', 'invalid signature');
        const size = uploadSize(c, params.size);
        if (size instanceof Response) return size;
        try {
          const result = await object.write(bodyOf(c), size, params.contentType);
          return new Response(null, { status: 200, headers: { ...CORS_HEADERS, ETag: result.etag ?? '' } });
        } catch (error) {
          return failFromError(error);
        }
      },
    ),
  );

  app.put(
    '/:configId/part',
    documented(
      {
        tag,
        summary: 'Uploads one part of a multipart upload through a signed URL',
        description: signed,
        auth: 'none',
        upload: 'binary',
      },
      async (c: Context) => {
        const auth = await authorise(c, 'part');
        if (auth instanceof Response) return auth;
        const { params, object } = auth;
        const size = uploadSize(c, params.size);
        if (size instanceof Response) return size;
        try {
          const { etag } = await object.uploadPart(bodyOf(c), size);
          return new Response(null, { status: 200, headers: { ...CORS_HEADERS, ETag: etag } });
        } catch (error) {
          return failFromError(error);
        }
      },
    ),
  );

  app.all('*', () => fail(404, 'NOT_FOUND', 'not found'));

  return app;
}
