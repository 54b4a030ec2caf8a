/**
 * Text-share routes: create (/api/paste), read (/api/paste/:slug, /api/raw/:slug), and management
 * under /api/admin/pastes (admin: all pastes) and /api/user/pastes (an API key: its own).
 */
import { pasteCreateSchema, pasteUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { idsBodySchema } from '../shares/share-rules.ts';
import type { AppEnv } from '../../http/context.ts';
import { answer } from '../../http/answer.ts';
import { ok, okWith } from '../../http/envelope.ts';
import { AppError, notFound, unauthenticated } from '../../errors/app-error.ts';
import { translate } from '../../errors/messages.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { PastesService } from './pastes.service.ts';

const TEXT_TYPE = 'text/plain; charset=utf-8';

const passwordBody = z.object({ password: z.string().max(1024).optional() });
const rawQuery = z.object({
  password: z.string().max(1024).optional(),
  /** One named file of a multi-file paste. */
  file: z.string().max(200).optional(),
});
const publicListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const idsBody = idsBodySchema('ids_required');
const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  search: z.string().max(200).optional(),
});

export function pastesRoutes(pastes: PastesService) {
  const app = new Hono<AppEnv>();
  const tag = 'Pastes';

  app.post(
    '/paste',
    route(
      {
        tag,
        summary: 'Creates a text share',
        auth: 'text',
        body: pasteCreateSchema,
        audit: { action: 'paste.create' },
      },
      async (c, { body }) => {
        const created = await pastes.create(c.get('principal')!, body);
        noteAudit(c, { target: created.slug });
        // The fields also stand at the top level: CloudPaste clients read them there.
        return okWith(c, 'pastes.created', created, created, 201);
      },
    ),
  );

  app.get(
    '/paste/:slug',
    route(
      {
        tag,
        summary: 'Reads a text share (counts a view; a protected one answers requiresPassword)',
        auth: 'none',
      },
      async (c) => {
        const view = await pastes.open(c.req.param('slug')!, {
          clientIp: c.get('clientIp'),
          count: c.req.method !== 'HEAD',
        });
        return okWith(c, 'pastes.loaded', view, view);
      },
    ),
  );

  app.post(
    '/paste/:slug',
    route(
      { tag, summary: 'Reads a protected text share with its password', auth: 'none', body: passwordBody },
      async (c, { body }) => {
        const view = await pastes.open(c.req.param('slug')!, {
          password: body.password ?? '',
          clientIp: c.get('clientIp'),
          count: true,
        });
        return okWith(c, 'pastes.loaded', view, view);
      },
    ),
  );

  app.get(
    '/raw/:slug',
    route(
      {
        tag,
        summary: 'The text of a share as text/plain (counts a view)',
        auth: 'none',
        query: rawQuery,
        produces: 'text',
      },
      async (c, { query }) => {
        try {
          const view = await pastes.open(c.req.param('slug')!, {
            password: query.password,
            clientIp: c.get('clientIp'),
            count: c.req.method !== 'HEAD',
          });
          if (view.requiresPassword) throw unauthenticated('pastes.password_required');
          const file = query.file === undefined ? undefined : view.files?.find((f) => f.name === query.file);
          if (query.file !== undefined && !file) throw notFound('pastes.file_not_found');
          return answer(c, file?.content ?? view.content ?? '', 200, {
            'content-type': TEXT_TYPE,
            'content-disposition': file
              ? contentDisposition('inline', file.name)
              : `inline; filename="${view.slug}.txt"`,
            'x-content-type-options': 'nosniff',
            'cache-control': 'no-store',
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const message = translate(error.messageKey, c.get('lang'), error.params);
          return answer(c, message, error.status, { ...error.headers, 'content-type': TEXT_TYPE });
        }
      },
    ),
  );

  app.get(
    '/public/pastes/status',
    route(
      {
        tag,
        summary: 'Whether the public paste page is on (the web shows its link only then)',
        auth: 'none',
      },
      async (c) => ok(c, 'pastes.loaded', { enabled: await pastes.publicPastesEnabled() }),
    ),
  );

  app.get(
    '/public/pastes',
    route(
      {
        tag,
        summary:
          'Lists public pastes (titles, sizes, languages; never their text); 404 while the page is off',
        auth: 'none',
        query: publicListQuery,
      },
      async (c, { query }) => {
        const { items, total } = await pastes.listPublic(query);
        return okWith(c, 'pastes.loaded', items, {
          pagination: {
            total,
            limit: query.limit,
            offset: query.offset,
            hasMore: query.offset + items.length < total,
          },
        });
      },
    ),
  );

  for (const scope of ['admin', 'user'] as const) {
    const auth = scope === 'admin' ? 'admin' : 'text';
    const own = scope === 'user';
    const base = `/${scope}/pastes`;
    const whose = own ? "the key's own text shares" : 'every text share';

    app.get(
      base,
      route({ tag, summary: `Lists ${whose}`, auth, query: listQuery }, async (c, { query: q }) => {
        const offset = q.offset ?? (q.page - 1) * q.limit;
        const { items, total } = await pastes.list(c.get('principal')!, {
          offset,
          limit: q.limit,
          search: q.search,
          own,
        });
        const pagination = {
          total,
          page: Math.floor(offset / q.limit) + 1,
          limit: q.limit,
          offset,
          totalPages: Math.max(1, Math.ceil(total / q.limit)),
          hasMore: offset + items.length < total,
        };
        return okWith(c, 'pastes.loaded', items, { pagination });
      }),
    );

    app.post(
      `${base}/batch-delete`,
      route(
        {
          tag,
          summary: `Deletes several of ${whose}`,
          auth,
          body: idsBody,
          audit: { action: 'paste.bulk_delete', target: (_c, { body }) => body?.ids.join(',') },
        },
        async (c, { body }) => {
          const count = await pastes.batchDelete(c.get('principal')!, body.ids);
          noteAudit(c, { details: { count } });
          return okWith(c, 'pastes.batch_deleted', { count }, {}, 200, { count });
        },
      ),
    );

    if (scope === 'admin') {
      app.post(
        `${base}/clear-expired`,
        route(
          {
            tag,
            summary: 'Deletes expired and used-up text shares now',
            auth,
            audit: { action: 'paste.clear_expired' },
          },
          async (c) => {
            const count = await pastes.purge();
            noteAudit(c, { details: { count } });
            return okWith(c, 'pastes.cleared', { count }, {}, 200, { count });
          },
        ),
      );
    }

    app.get(
      `${base}/:id`,
      route({ tag, summary: `One of ${whose} (by id or slug)`, auth }, async (c) =>
        ok(c, 'pastes.loaded', await pastes.get(c.get('principal')!, c.req.param('id')!)),
      ),
    );

    app.put(
      `${base}/:id`,
      route(
        {
          tag,
          summary: `Changes one of ${whose}`,
          auth,
          body: pasteUpdateSchema,
          audit: { action: 'paste.update', target: idParam },
        },
        async (c, { body }) =>
          ok(c, 'pastes.updated', await pastes.update(c.get('principal')!, c.req.param('id')!, body)),
      ),
    );

    app.post(
      `${base}/:id/revoke`,
      route(
        {
          tag,
          summary: `Revokes one of ${whose}: its link answers 410 from now on`,
          auth,
          audit: { action: 'paste.revoke', target: idParam },
        },
        async (c) =>
          ok(c, 'pastes.revoked_done', await pastes.revoke(c.get('principal')!, c.req.param('id')!)),
      ),
    );

    app.delete(
      `${base}/:id`,
      route(
        { tag, summary: `Deletes one of ${whose}`, auth, audit: { action: 'paste.delete', target: idParam } },
        async (c) => {
          await pastes.delete(c.get('principal')!, c.req.param('id')!);
          return ok(c, 'pastes.deleted', null);
        },
      ),
    );
  }

  return app;
}
