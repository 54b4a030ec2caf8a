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
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../errors/app-error.ts';
import { publicOrigin, rebaseUrl } from '../../http/public-origin.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import type { FilesTable } from '../../db/schema.ts';
import { toFileShare } from '../files/files.serializer.ts';
import {
  commitSchema,
  directUploadSchema,
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

  const principal = (c: Context<AppEnv>): Principal => c.get('principal')!;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, options.config);
  const clientUrl = (c: Context<AppEnv>, url: URL) => rebaseUrl(url, options.internalBaseUrl, origin(c));
  /** The share a finished upload made, named in the route's audit entry. */
  const share = (c: Context<AppEnv>, row: FilesTable) => {
    noteAudit(c, { target: row.slug });
    return toFileShare(row, { origin: origin(c) });
  };

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

  const tag = 'Uploads';
  const auth = 'file';

  // A refused body is left unread; the server closes the connection (http/node-server.ts).
  app.post(
    '/upload',
    route(
      {
        tag,
        summary: 'Uploads a file as a form (field `file`), streamed to storage; answers the share',
        description:
          'Form fields: s3_config_id and path (before the file), slug, remark, password, expires_in (hours), max_views, use_proxy.',
        auth,
        upload: 'multipart',
        audit: { action: 'share.create' },
      },
      async (c) => {
        const length = c.req.header('content-length');
        const row = await uploads.formUpload(principal(c), {
          body: c.req.raw.body,
          contentType: c.req.header('content-type') ?? '',
          ...(length && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
        });
        return ok(c, 'uploads.uploaded', share(c, row));
      },
    ),
  );

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
  app.put(
    '/upload-direct/:filename',
    customAuthKey,
    route(
      {
        tag,
        summary:
          'Uploads the raw request body as a file named by the URL (`curl -T file …`); answers the share',
        description:
          'Credentials also as `X-Custom-Auth-Key: <api key>`. The name comes from the URL; the type from the name.',
        auth,
        query: directUploadSchema,
        upload: 'binary',
        audit: { action: 'share.create' },
      },
      async (c, { query }) => {
        const length = c.req.header('content-length');
        const { row, ownFolder } = await uploads.directUpload(principal(c), {
          filename: directFilename(c),
          body: c.req.raw.body,
          fields: query,
          ...(length && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
        });
        return ok(c, 'uploads.uploaded', { ...share(c, row), used_original_filename: ownFolder });
      },
    ),
  );

  app.post(
    '/s3/presign',
    route(
      {
        tag,
        summary: 'Starts a presigned upload: a single-use URL to PUT the file to',
        auth,
        body: presignSchema,
      },
      async (c, { body }) =>
        ok(c, 'uploads.presigned', presigned(c, await uploads.presign(principal(c), body))),
    ),
  );

  const commit = route(
    {
      tag,
      summary: 'Finishes a presigned upload; answers the share',
      auth,
      body: commitSchema,
      audit: { action: 'share.create' },
    },
    async (c, { body }) => ok(c, 'uploads.committed', share(c, await uploads.commit(principal(c), body))),
  );
  app.post('/s3/commit', commit);
  app.post('/url/commit', commit);

  app.post(
    '/s3/multipart/init',
    route(
      { tag, summary: 'Starts a multipart upload (parts of 5 MiB or more)', auth, body: multipartInitSchema },
      async (c, { body }) =>
        ok(c, 'uploads.multipart_started', multipartStarted(await uploads.initMultipart(principal(c), body))),
    ),
  );

  app.post(
    '/s3/multipart/urls',
    route(
      { tag, summary: 'Fresh presigned URLs for some parts', auth, body: partUrlsSchema },
      async (c, { body }) => {
        const urls = await uploads.partUrls(principal(c), body);
        return ok(c, 'uploads.part_urls', {
          urls: urls.map((u) => ({ partNumber: u.partNumber, url: clientUrl(c, u.url) })),
        } satisfies PartUrlsAnswer);
      },
    ),
  );

  app.get(
    '/s3/multipart/status',
    route(
      { tag, summary: 'The parts storage already holds, to resume an upload', auth, query: sessionSchema },
      async (c, { query: q }) => {
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
      },
    ),
  );

  app.post(
    '/s3/multipart/part',
    route(
      { tag, summary: 'Records a finished part (checked against storage)', auth, body: partRecordSchema },
      async (c, { body }) => {
        const part = await uploads.recordPart(principal(c), body);
        return ok(c, 'uploads.part_recorded', {
          partNumber: part.partNumber,
          etag: part.etag,
          size: part.size,
        } satisfies ConfirmedPart);
      },
    ),
  );

  const complete = route(
    {
      tag,
      summary: 'Completes a multipart upload; answers the share',
      auth,
      body: completeSchema,
      audit: { action: 'share.create' },
    },
    async (c, { body }) => {
      const row = await uploads.complete(principal(c), body);
      return ok(c, 'uploads.multipart_completed', {
        ...share(c, row),
        file_id: row.id,
        status: 'completed',
      } satisfies MultipartCompleteAnswer);
    },
  );
  app.post('/s3/multipart/complete', complete);
  app.post('/url/multipart/complete', complete);

  const abort = route(
    { tag, summary: 'Aborts a multipart upload and deletes its record', auth, body: sessionSchema },
    async (c, { body: { file_id, upload_id } }) => {
      await uploads.abort(principal(c), file_id, upload_id);
      return ok(c, 'uploads.multipart_aborted', {
        file_id,
        status: 'aborted',
      } satisfies MultipartAbortAnswer);
    },
  );
  app.post('/s3/multipart/abort', abort);
  app.post('/url/multipart/abort', abort);

  app.post(
    '/url/presign',
    route(
      {
        tag,
        summary: 'Starts a presigned upload of a file the browser fetched from a URL',
        auth,
        body: urlPresignSchema,
      },
      async (c, { body }) =>
        ok(c, 'uploads.url_ready', presigned(c, await uploads.urlPresign(principal(c), body))),
    ),
  );

  app.post(
    '/url/multipart/init',
    route(
      {
        tag,
        summary: 'Starts a multipart upload of a URL source, with every part URL',
        auth,
        body: urlMultipartInitSchema,
      },
      async (c, { body }) => {
        const p = await uploads.urlMultipartInit(principal(c), body);
        return ok(c, 'uploads.multipart_started', {
          ...multipartStarted(p),
          total_size: p.session.total_size,
          presigned_urls: p.urls.map((u) => ({ partNumber: u.partNumber, url: clientUrl(c, u.url) })),
        } satisfies UrlMultipartInitAnswer);
      },
    ),
  );

  app.post(
    '/url/cancel',
    route(
      { tag, summary: 'Cancels an unfinished upload of any kind', auth, body: fileIdSchema },
      async (c, { body: { file_id } }) => {
        await uploads.cancel(principal(c), file_id);
        return ok(c, 'uploads.url_cancelled', { file_id, status: 'cancelled' } satisfies UrlCancelAnswer);
      },
    ),
  );

  return app;
}
