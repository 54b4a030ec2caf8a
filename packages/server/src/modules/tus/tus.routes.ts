/**
 * The tus 1.0 endpoint at `/api/tus/` (docs/api.md, "Resumable uploads (tus)"): OPTIONS advertises
 * the version, extensions, checksum algorithms and size limit; POST creates (creation,
 * creation-with-upload); HEAD answers the offset; PATCH appends; DELETE terminates. Every request
 * but OPTIONS must say `Tus-Resumable: 1.0.0` (412 otherwise), and every answer says it too. The
 * credentials are the API's own Authorization header, on every request; who may do what is the
 * target's rule (tus-targets.ts). Thin: read the headers, call TusService, answer.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Config } from '../../config/config.ts';
import { preconditionFailed, unsupportedType } from '../../errors/app-error.ts';
import { addAnswerHeader, answer } from '../../http/answer.ts';
import { authorize } from '../../http/auth.ts';
import type { AppEnv } from '../../http/context.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { route } from '../../http/route-docs.ts';
import type { TusUploadsTable } from '../../db/schema.ts';
import {
  byteHeader,
  CHECKSUM_ALGORITHMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
  type TusService,
} from './tus.service.ts';
import type { TusFinished, TusTarget } from './tus-targets.ts';

const OFFSET_TYPE = 'application/offset+octet-stream';

export function tusRoutes(
  tus: TusService,
  options: { config: Pick<Config, 'publicUrl' | 'trustProxyHops'> },
) {
  const app = new Hono<AppEnv>();
  const tag = 'Resumable uploads (tus)';

  // Every answer names the protocol; a client speaking another version is refused before anything.
  const speaksTus: MiddlewareHandler<AppEnv> = (c, next) => {
    addAnswerHeader(c, 'Tus-Resumable', TUS_VERSION);
    if (c.req.method !== 'OPTIONS' && c.req.header('tus-resumable') !== TUS_VERSION) {
      addAnswerHeader(c, 'Tus-Version', TUS_VERSION);
      throw preconditionFailed('tus.version_unsupported', { version: TUS_VERSION });
    }
    return next();
  };
  app.use('/tus', speaksTus);
  app.use('/tus/*', speaksTus);

  const guard = (c: Context<AppEnv>) => (target: TusTarget) => authorize(c, target.auth);
  const expires = (upload: TusUploadsTable) => ({
    'Upload-Expires': new Date(upload.expires_at).toUTCString(),
  });
  /** Where a finished upload's file is: its share's page, its mount path. */
  const finishedHeaders = (c: Context<AppEnv>, finished: TusFinished | undefined) => ({
    ...(finished?.slug
      ? { 'Cubby-Share-Url': `${publicOrigin(c, options.config)}/file/${finished.slug}` }
      : {}),
    ...(finished?.path ? { 'Cubby-Path': encodeURI(finished.path) } : {}),
  });
  const patchInput = (c: Context<AppEnv>) => ({
    offset: byteHeader(c.req.header('upload-offset')),
    contentLength: byteHeader(c.req.header('content-length')),
    checksum: c.req.header('upload-checksum'),
    body: c.req.raw.body,
  });

  const options_ = route(
    { tag, summary: 'What this tus server offers (version, extensions, size limit)', auth: 'none' },
    async (c) =>
      answer(c, null, 204, {
        'Tus-Version': TUS_VERSION,
        'Tus-Extension': TUS_EXTENSIONS,
        'Tus-Max-Size': String(await tus.maxSize()),
        'Tus-Checksum-Algorithm': CHECKSUM_ALGORITHMS.join(','),
      }),
  );
  app.options('/tus', options_);
  app.options('/tus/', options_);

  const create = route(
    {
      tag,
      summary: 'Creates an upload (Upload-Length, Upload-Metadata; a body: creation-with-upload)',
      description:
        'Upload-Metadata names the file (`filename`) and one target: `path` (a mount folder or file; mount permission), `share` (a new file share; file permission; with `password`, `expires_in`, `max_views`, `remark`, `slug`, `s3_config_id`), `bundle` (a bundle slug the caller manages: a new file share appended to it; file permission) or `upload_request` (an upload request token, no account; `access`, `batch`). Answers 201 with Location.',
      auth: 'none',
      upload: 'binary',
    },
    async (c) => {
      const principal = c.get('principal');
      const upload = await tus.create(
        principal,
        {
          length: c.req.header('upload-defer-length') ? undefined : byteHeader(c.req.header('upload-length')),
          metadata: c.req.header('upload-metadata'),
        },
        guard(c),
      );
      const headers: Record<string, string> = {
        Location: `${publicOrigin(c, options.config)}/api/tus/${upload.id}`,
        ...expires(upload),
      };
      const withBody = c.req.header('content-type')?.split(';')[0]?.trim() === OFFSET_TYPE;
      if (withBody || upload.upload_length === 0) {
        try {
          const done = await tus.patch(principal, upload, { ...patchInput(c), offset: 0 });
          Object.assign(headers, { 'Upload-Offset': String(done.offset) }, finishedHeaders(c, done.finished));
        } catch (error) {
          // The upload exists: the client learns where, and resumes from what HEAD says.
          c.get('log').warn({ err: error }, 'the body of a tus creation was not taken whole');
          headers['Upload-Offset'] = String(await tus.offsetOf(upload).catch(() => 0));
        }
      }
      return answer(c, null, 201, headers);
    },
  );
  app.post('/tus', create);
  app.post('/tus/', create);

  // Hono answers HEAD with the GET route, without its body.
  app.get(
    '/tus/:id',
    route({ tag, summary: 'The offset of an upload (HEAD)', auth: 'none' }, async (c) => {
      const upload = await tus.find(c.get('principal'), c.req.param('id')!, guard(c));
      return answer(c, null, 200, {
        'Upload-Offset': String(await tus.offsetOf(upload)),
        'Upload-Length': String(upload.upload_length),
        ...(upload.metadata ? { 'Upload-Metadata': upload.metadata } : {}),
        'Cache-Control': 'no-store',
        ...expires(upload),
      });
    }),
  );

  app.patch(
    '/tus/:id',
    route(
      {
        tag,
        summary: 'Appends bytes at Upload-Offset (Content-Type application/offset+octet-stream)',
        description:
          '409 when Upload-Offset is not the offset held; with Upload-Checksum (sha1, md5, sha256) a mismatch answers 460 and the bytes are discarded; 413 past Upload-Length.',
        auth: 'none',
        upload: 'binary',
      },
      async (c) => {
        const upload = await tus.find(c.get('principal'), c.req.param('id')!, guard(c));
        if (c.req.header('content-type')?.split(';')[0]?.trim() !== OFFSET_TYPE) {
          throw unsupportedType('tus.content_type');
        }
        const done = await tus.patch(c.get('principal'), upload, patchInput(c));
        return answer(c, null, 204, {
          'Upload-Offset': String(done.offset),
          ...expires(upload),
          ...finishedHeaders(c, done.finished),
        });
      },
    ),
  );

  app.delete(
    '/tus/:id',
    route({ tag, summary: 'Terminates an upload (its bytes go)', auth: 'none' }, async (c) => {
      const upload = await tus.find(c.get('principal'), c.req.param('id')!, guard(c));
      await tus.terminate(upload);
      return answer(c, null, 204);
    }),
  );

  return app;
}
