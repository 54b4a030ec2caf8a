/**
 * Text-share routes: create (/api/paste), read (/api/paste/:slug, /api/raw/:slug), and management
 * under /api/admin/pastes (admin: all pastes) and /api/user/pastes (an API key: its own).
 */
import { pasteCreateSchema, pasteUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAdmin, requirePermission } from '../../http/auth.ts';
import type { AppEnv } from '../../http/context.ts';
import { answer } from '../../http/answer.ts';
import { ok, okWith } from '../../http/envelope.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { translate } from '../../http/messages.ts';
import { readJson, validate } from '../../http/validate.ts';
import type { PastesService } from './pastes.service.ts';

const TEXT_TYPE = 'text/plain; charset=utf-8';

const passwordBody = z.object({ password: z.string().optional() });
const idsBody = z.object({ ids: z.array(z.string()).min(1) });
const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).optional(),
  search: z.string().max(200).optional(),
});

export function pastesRoutes(pastes: PastesService) {
  const app = new Hono<AppEnv>();

  app.post('/paste', requirePermission('text'), async (c) => {
    const created = await pastes.create(c.get('principal')!, await readJson(c, pasteCreateSchema));
    // The fields also stand at the top level: CloudPaste clients read them there.
    return okWith(c, 'pastes.created', created, created, 201);
  });

  app.get('/paste/:slug', async (c) => {
    const view = await pastes.open(c.req.param('slug'), {
      clientIp: c.get('clientIp'),
      count: c.req.method !== 'HEAD',
    });
    return okWith(c, 'pastes.loaded', view, view);
  });

  app.post('/paste/:slug', async (c) => {
    const { password } = await readJson(c, passwordBody);
    const view = await pastes.open(c.req.param('slug'), {
      password: password ?? '',
      clientIp: c.get('clientIp'),
      count: true,
    });
    return okWith(c, 'pastes.loaded', view, view);
  });

  app.get('/raw/:slug', async (c) => {
    try {
      const view = await pastes.open(c.req.param('slug'), {
        password: c.req.query('password') ?? undefined,
        clientIp: c.get('clientIp'),
        count: c.req.method !== 'HEAD',
      });
      if (view.requiresPassword) throw new AppError(401, 'UNAUTHENTICATED', 'pastes.password_required');
      return answer(c, view.content ?? '', 200, {
        'content-type': TEXT_TYPE,
        'content-disposition': `inline; filename="${view.slug}.txt"`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const message = translate(error.messageKey, c.get('lang'), error.params);
      return answer(c, message, error.status, { ...error.headers, 'content-type': TEXT_TYPE });
    }
  });

  for (const scope of ['admin', 'user'] as const) {
    const guard = scope === 'admin' ? requireAdmin : requirePermission('text');
    const own = scope === 'user';
    const base = `/${scope}/pastes`;
    app.use(base, guard);
    app.use(`${base}/*`, guard);

    app.get(base, async (c) => {
      const q = validate(listQuery, c.req.query());
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
    });

    app.post(`${base}/batch-delete`, async (c) => {
      const body = await readJson(c, z.unknown());
      const parsed = idsBody.safeParse(body);
      if (!parsed.success) throw badRequest('pastes.ids_required');
      const count = await pastes.batchDelete(c.get('principal')!, parsed.data.ids);
      return okWith(c, 'pastes.batch_deleted', { count }, {}, 200, { count });
    });

    if (scope === 'admin') {
      app.post(`${base}/clear-expired`, async (c) => {
        const count = await pastes.purge();
        return okWith(c, 'pastes.cleared', { count }, {}, 200, { count });
      });
    }

    app.get(`${base}/:id`, async (c) =>
      ok(c, 'pastes.loaded', await pastes.get(c.get('principal')!, c.req.param('id'))),
    );

    app.put(`${base}/:id`, async (c) => {
      const input = await readJson(c, pasteUpdateSchema);
      return ok(c, 'pastes.updated', await pastes.update(c.get('principal')!, c.req.param('id'), input));
    });

    app.delete(`${base}/:id`, async (c) => {
      await pastes.delete(c.get('principal')!, c.req.param('id'));
      return ok(c, 'pastes.deleted', null);
    });
  }

  return app;
}
