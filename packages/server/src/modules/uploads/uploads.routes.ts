/**
 * Upload routes (all need `file` permission): the streamed form upload `/api/upload` and raw-body
 * `/api/upload-direct/:filename`, presign +
 * commit and multipart under `/api/s3/*`, and the URL-upload flows under `/api/url/*` (presign,
 * commit, multipart, cancel; `/api/url/info` and `/proxy` live in modules/url-upload). Thin: parse,
 * call UploadsService, answer. Presigned URLs of local storage are moved onto the origin the
 * client used.
 */
import type {
  ConfirmedPart,
  MultipartAbortAnswer,
  MultipartCompleteAnswer,
  MultipartInitAnswer,
  MultipartStatus,
  PartUrlsAnswer,
  PresignAnswer,
  Principal,
  UrlCancelAnswer,
  UrlMultipartInitAnswer,
} from '@cubby/shared';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Config } from '../../config/config.ts';
import { requirePermission } from '../../http/auth.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { publicOrigin, rebaseUrl } from '../../http/public-origin.ts';
import { readJson, validate } from '../../http/validate.ts';
import type { FilesTable } from '../../db/schema.ts';
import { toFileShare } from '../files/files.serializer.ts';
import {
  commitSchema,
  completeSchema,
  fileIdSchema,
  multipartInitSchema,
  partRecordSchema,
  partUrlsSchema,
  presignSchema,
  sessionSchema,
  urlMultipartInitSchema,
  urlPresignSchema,
} from './uploads.schemas.ts';
import type { UploadsService } from './uploads.service.ts';

export interface UploadsRouteOptions {
  config: Pick<Config, 'publicUrl' | 'trustProxyHops'>;
  /** Base URL the local driver signs URLs against (StorageConfigsService.internalBaseUrl). */
  internalBaseUrl: string;
  /** The API key's principal (ApiKeysService.resolveKey), for upload-direct's `X-Custom-Auth-Key`. */
  resolveKey: (key: string) => Promise<Principal | null>;
}

/** The file name of an upload-direct URL: its last path segment, percent-decoded exactly once. */
function directFilename(c: Context<AppEnv>): string {
  const path = new URL(c.req.url).pathname;
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    throw badRequest('uploads.filename_invalid');
  }
}

export function uploadsRoutes(uploads: UploadsService, options: UploadsRouteOptions) {
  const app = new Hono<AppEnv>();
  const guard = requirePermission('file');

  const principal = (c: Context<AppEnv>): Principal => c.get('principal')!;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, options.config);
  const clientUrl = (c: Context<AppEnv>, url: URL) => rebaseUrl(url, options.internalBaseUrl, origin(c));
  const share = (c: Context<AppEnv>, row: FilesTable) => toFileShare(row, { origin: origin(c) });

  /** The presign answer (CloudPaste's fields, plus the headers the PUT must carry). */
  const presigned = (
    c: Context<AppEnv>,
    p: Awaited<ReturnType<UploadsService['presign']>>,
  ): PresignAnswer => ({
    file_id: p.row.id,
    upload_url: clientUrl(c, p.url),
    storage_path: p.row.storage_path,
    slug: p.row.slug,
    filename: p.row.filename,
    size: p.row.size,
    provider_type: p.config.provider_type,
    contentType: p.row.mimetype,
    upload_headers: { 'Content-Type': p.row.mimetype },
  });

  const multipartStarted = (
    p: Awaited<ReturnType<UploadsService['initMultipart']>>,
  ): MultipartInitAnswer => ({
    file_id: p.row.id,
    upload_id: p.session.upload_id,
    slug: p.row.slug,
    filename: p.row.filename,
    size: p.row.size,
    contentType: p.row.mimetype,
    part_size: p.session.part_size,
    part_count: p.session.part_count,
    storage_path: p.row.storage_path,
    provider_type: p.config.provider_type,
    url: `/file/${p.row.slug}`,
  });

  // A refused body is left unread; the server closes the connection (http/node-server.ts).
  app.post('/upload', guard, async (c) => {
    const length = c.req.header('content-length');
    const row = await uploads.formUpload(principal(c), {
      body: c.req.raw.body,
      contentType: c.req.header('content-type') ?? '',
      ...(length && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
    });
    return ok(c, 'uploads.uploaded', share(c, row));
  });

  /**
   * CloudPaste's fallback credential of upload-direct: `X-Custom-Auth-Key: <api key>`, used only
   * when the Authorization header named no valid credential.
   */
  const customAuthKey: MiddlewareHandler<AppEnv> = async (c, next) => {
    const key = c.req.header('x-custom-auth-key')?.trim();
    if (key && !c.get('principal')) {
      const resolved = await options.resolveKey(key);
      c.set('principal', resolved);
      c.set('credentialsRejected', resolved === null);
    }
    await next();
  };

  /**
   * CloudPaste's one-shot upload for scripts (`curl -T report.pdf …/api/upload-direct/report.pdf`):
   * the name from the URL, the raw body (any Content-Type, chunked or not) as the file, the share
   * fields in the query.
   */
  app.put('/upload-direct/:filename', customAuthKey, guard, async (c) => {
    const length = c.req.header('content-length');
    const { row, ownFolder } = await uploads.directUpload(principal(c), {
      filename: directFilename(c),
      body: c.req.raw.body,
      query: c.req.query(),
      ...(length && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
    });
    return ok(c, 'uploads.uploaded', { ...share(c, row), used_original_filename: ownFolder });
  });

  app.post('/s3/presign', guard, async (c) => {
    const p = await uploads.presign(principal(c), await readJson(c, presignSchema));
    return ok(c, 'uploads.presigned', presigned(c, p));
  });

  const commit = async (c: Context<AppEnv>) => {
    const row = await uploads.commit(principal(c), await readJson(c, commitSchema));
    return ok(c, 'uploads.committed', share(c, row));
  };
  app.post('/s3/commit', guard, commit);
  app.post('/url/commit', guard, commit);

  app.post('/s3/multipart/init', guard, async (c) => {
    const p = await uploads.initMultipart(principal(c), await readJson(c, multipartInitSchema));
    return ok(c, 'uploads.multipart_started', multipartStarted(p));
  });

  app.post('/s3/multipart/urls', guard, async (c) => {
    const urls = await uploads.partUrls(principal(c), await readJson(c, partUrlsSchema));
    return ok(c, 'uploads.part_urls', {
      urls: urls.map((u) => ({ partNumber: u.partNumber, url: clientUrl(c, u.url) })),
    } satisfies PartUrlsAnswer);
  });

  app.get('/s3/multipart/status', guard, async (c) => {
    const q = validate(sessionSchema, c.req.query());
    const { open, parts } = await uploads.status(principal(c), q.file_id, q.upload_id);
    return ok(c, 'uploads.status', {
      file_id: open.row.id,
      upload_id: open.session.upload_id,
      filename: open.row.filename,
      size: open.session.total_size,
      part_size: open.session.part_size,
      part_count: open.session.part_count,
      parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag, size: p.size })),
    } satisfies MultipartStatus);
  });

  app.post('/s3/multipart/part', guard, async (c) => {
    const part = await uploads.recordPart(principal(c), await readJson(c, partRecordSchema));
    return ok(c, 'uploads.part_recorded', {
      partNumber: part.partNumber,
      etag: part.etag,
      size: part.size,
    } satisfies ConfirmedPart);
  });

  const complete = async (c: Context<AppEnv>) => {
    const row = await uploads.complete(principal(c), await readJson(c, completeSchema));
    return ok(c, 'uploads.multipart_completed', {
      ...share(c, row),
      file_id: row.id,
      status: 'completed',
    } satisfies MultipartCompleteAnswer);
  };
  app.post('/s3/multipart/complete', guard, complete);
  app.post('/url/multipart/complete', guard, complete);

  const abort = async (c: Context<AppEnv>) => {
    const { file_id, upload_id } = await readJson(c, sessionSchema);
    await uploads.abort(principal(c), file_id, upload_id);
    return ok(c, 'uploads.multipart_aborted', { file_id, status: 'aborted' } satisfies MultipartAbortAnswer);
  };
  app.post('/s3/multipart/abort', guard, abort);
  app.post('/url/multipart/abort', guard, abort);

  app.post('/url/presign', guard, async (c) => {
    const p = await uploads.urlPresign(principal(c), await readJson(c, urlPresignSchema));
    return ok(c, 'uploads.url_ready', presigned(c, p));
  });

  app.post('/url/multipart/init', guard, async (c) => {
    const p = await uploads.urlMultipartInit(principal(c), await readJson(c, urlMultipartInitSchema));
    return ok(c, 'uploads.multipart_started', {
      ...multipartStarted(p),
      total_size: p.session.total_size,
      presigned_urls: p.urls.map((u) => ({ partNumber: u.partNumber, url: clientUrl(c, u.url) })),
    } satisfies UrlMultipartInitAnswer);
  });

  app.post('/url/cancel', guard, async (c) => {
    const { file_id } = await readJson(c, fileIdSchema);
    await uploads.cancel(principal(c), file_id);
    return ok(c, 'uploads.url_cancelled', { file_id, status: 'cancelled' } satisfies UrlCancelAnswer);
  });

  return app;
}
