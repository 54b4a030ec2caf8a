/**
 * File-share routes: the public info and password check (/api/public/files/:slug[/verify]), the
 * bytes (/api/file-view/:slug, /api/file-download/:slug; files.delivery.ts), the link an online
 * Office viewer fetches (/api/office-preview/:slug), and management under /api/admin/files (admin:
 * every share) and /api/user/files (an API key with `file`: its own).
 */
import {
  FILE_SOURCES,
  type FileListAnswer,
  maxViewsSchema,
  optionalExpirySchema,
  slugSchema,
} from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { idsBodySchema } from '../shares/share-rules.ts';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok, okWith } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import { MAX_EXPIRES_HOURS } from '../uploads/uploads.schemas.ts';
import { deliverFile } from './files.delivery.ts';
import type { FilesService } from './files.service.ts';

const passwordBody = z.object({ password: z.string().max(200).optional() });
const idsBody = idsBodySchema('file_ids_required');
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  search: z.string().max(200).optional(),
  s3_config_id: z.string().max(100).optional(),
  /** Only shares of this source: 'mount_upload' (published by uploads into mounts) or 'share'. */
  source: z.enum(FILE_SOURCES, { error: 'file_source_invalid' }).optional(),
});
/** The credentials file-view and file-download take in the query (a link's token, or the password). */
const deliveryQuery = z.object({
  token: z.string().max(1024).optional(),
  password: z.string().max(1024).optional(),
});

/** PUT /api/{admin,user}/files/:id; every field optional. */
export const fileUpdateSchema = z.object({
  remark: z.string().max(500, { message: 'remark_too_long' }).nullish(),
  /** A new link suffix; empty or null picks a new random one. */
  slug: z.union([z.literal(''), z.null(), slugSchema]).optional(),
  /** ISO time, or null / "" for never. */
  expires_at: optionalExpirySchema.optional(),
  /** Hours from now; 0 for never (the upload forms' unit). */
  expires_in: z
    .number({ error: 'expires_in_invalid' })
    .min(0, { message: 'expires_in_invalid' })
    .max(MAX_EXPIRES_HOURS, { message: 'expires_in_invalid' })
    .optional(),
  max_views: maxViewsSchema.optional(),
  /** A new password; "", null or false removes it. */
  password: z.union([z.string().max(200), z.null(), z.literal(false)]).optional(),
  use_proxy: z.union([z.boolean(), z.literal(0), z.literal(1)], { error: 'use_proxy_invalid' }).optional(),
});

export function filesRoutes(files: FilesService, config: Pick<Config, 'publicUrl' | 'trustProxyHops'>) {
  const app = new Hono<AppEnv>();
  const tag = 'File shares';

  app.get(
    '/public/files/:slug',
    route(
      { tag, summary: "A file share's details and links (no links while it needs a password)", auth: 'none' },
      async (c) => ok(c, 'files.loaded', await files.info(c.req.param('slug')!, publicOrigin(c, config))),
    ),
  );

  app.post(
    '/public/files/:slug/verify',
    route(
      {
        tag,
        summary: 'Checks the password; answers links that carry a token',
        auth: 'none',
        body: passwordBody,
      },
      async (c, { body }) => {
        const { share, passwordNeeded } = await files.verify(
          c.req.param('slug')!,
          body.password,
          c.get('clientIp'),
          publicOrigin(c, config),
        );
        return ok(c, passwordNeeded ? 'files.verified' : 'files.no_password_needed', share);
      },
    ),
  );

  app.get(
    '/office-preview/:slug',
    route(
      {
        tag,
        summary: 'A short-lived link an online Office viewer can fetch (only when the admin turned it on)',
        auth: 'none',
        query: deliveryQuery,
      },
      async (c, { query }) => {
        const preview = await files.officePreview(
          c.req.param('slug')!,
          { ...query, clientIp: c.get('clientIp') },
          publicOrigin(c, config),
        );
        // CloudPaste's client reads the fields at the top level.
        return okWith(c, 'files.office_preview', preview, { ...preview, is_temporary: true });
      },
    ),
  );

  // GET handlers answer HEAD too (without a body); deliverFile tells them apart.
  const delivery = { tag, auth: 'none', query: deliveryQuery, produces: 'bytes' } as const;
  app.get(
    '/file-view/:slug',
    route(
      { ...delivery, summary: 'The file, shown in the browser when that is safe (Range, ETag)' },
      (c, { query }) => deliverFile(c, files, config, 'view', query),
    ),
  );
  app.get(
    '/file-download/:slug',
    route({ ...delivery, summary: 'The file as a download (Range, ETag)' }, (c, { query }) =>
      deliverFile(c, files, config, 'download', query),
    ),
  );

  for (const scope of ['admin', 'user'] as const) {
    const auth = scope === 'admin' ? 'admin' : 'file';
    const own = scope === 'user';
    const base = `/${scope}/files`;
    const whose = own ? "the key's own file shares" : 'every file share';

    app.get(
      base,
      route({ tag, summary: `Lists ${whose}`, auth, query: listQuery }, async (c, { query: q }) => {
        const { files: items, total } = await files.list(c.get('principal')!, {
          offset: q.offset,
          limit: q.limit,
          search: q.search,
          own,
          storageConfigId: q.s3_config_id,
          source: q.source,
        });
        const pagination = {
          total,
          limit: q.limit,
          offset: q.offset,
          hasMore: q.offset + items.length < total,
        };
        return ok(c, 'files.listed', { files: items, pagination } satisfies FileListAnswer);
      }),
    );

    app.post(
      `${base}/batch-delete`,
      route(
        {
          tag,
          summary: `Deletes several of ${whose}, with their files`,
          auth,
          body: idsBody,
          audit: { action: 'share.bulk_delete', target: (_c, { body }) => body?.ids.join(',') },
        },
        async (c, { body }) => {
          const { count, objectFailures } = await files.batchDelete(c.get('principal')!, body.ids);
          noteAudit(c, { details: { count, object_failures: objectFailures.length } });
          return okWith(
            c,
            objectFailures.length ? 'files.batch_deleted_object_failed' : 'files.batch_deleted',
            { count, object_failures: objectFailures },
            {},
            200,
            { count, failed: objectFailures.length },
          );
        },
      ),
    );

    app.get(
      `${base}/:id`,
      route({ tag, summary: `One of ${whose}`, auth }, async (c) =>
        ok(
          c,
          'files.loaded',
          await files.get(c.get('principal')!, c.req.param('id')!, publicOrigin(c, config)),
        ),
      ),
    );

    app.put(
      `${base}/:id`,
      route(
        {
          tag,
          summary: `Changes one of ${whose}`,
          auth,
          body: fileUpdateSchema,
          audit: { action: 'share.update', target: idParam },
        },
        async (c, { body }) => {
          const detail = await files.update(
            c.get('principal')!,
            c.req.param('id')!,
            body,
            publicOrigin(c, config),
          );
          return ok(c, 'files.updated', detail);
        },
      ),
    );

    app.post(
      `${base}/:id/revoke`,
      route(
        {
          tag,
          summary: `Revokes one of ${whose}: its links answer 410 from now on (the file stays until deleted)`,
          auth,
          audit: { action: 'share.revoke', target: idParam },
        },
        async (c) =>
          ok(
            c,
            'files.revoked_done',
            await files.revoke(c.get('principal')!, c.req.param('id')!, publicOrigin(c, config)),
          ),
      ),
    );

    app.delete(
      `${base}/:id`,
      route(
        {
          tag,
          summary: `Deletes one of ${whose}, with its file`,
          auth,
          audit: { action: 'share.delete', target: idParam },
        },
        async (c) => {
          const id = c.req.param('id')!;
          const { objectDeleted } = await files.delete(c.get('principal')!, id);
          return ok(c, objectDeleted ? 'files.deleted' : 'files.deleted_object_failed', {
            id,
            object_deleted: objectDeleted,
          });
        },
      ),
    );
  }

  return app;
}
