/**
 * /api/admin/mounts (admin: every mount, create, change, delete) and /api/user/mounts (an API key
 * with the mount permission: the active mounts it may reach; keys never change mounts).
 */
import { mountCreateSchema, mountUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { MountsService } from './mounts.service.ts';

export function mountsRoutes(mounts: MountsService) {
  const app = new Hono<AppEnv>();
  const tag = 'Mounts';

  app.get(
    '/admin/mounts',
    route(
      { tag, summary: 'Lists every mount, active or not, by sort order then name', auth: 'admin' },
      async (c) => ok(c, 'mounts.listed', await mounts.list()),
    ),
  );

  app.post(
    '/admin/mounts',
    route(
      {
        tag,
        summary: 'Creates a mount: a virtual path showing the root of a storage config (local disk or S3)',
        description:
          '`storage_type` may be "S3" (what CloudPaste clients send) or left out: the config decides. ' +
          'Answers 201; 409 when another mount has the path; 400 when the config does not exist.',
        auth: 'admin',
        body: mountCreateSchema,
        audit: { action: 'mount.create' },
      },
      async (c, { body }) => {
        const created = await mounts.create(body, c.get('principal')!);
        noteAudit(c, { target: created.id });
        return ok(c, 'mounts.created', created, 201);
      },
    ),
  );

  app.get(
    '/admin/mounts/:id',
    route({ tag, summary: 'One mount', auth: 'admin' }, async (c) =>
      ok(c, 'mounts.loaded', await mounts.get(c.req.param('id')!)),
    ),
  );

  app.put(
    '/admin/mounts/:id',
    route(
      {
        tag,
        summary: 'Changes a mount (any of its fields); forgets its cached listings',
        auth: 'admin',
        body: mountUpdateSchema,
        audit: { action: 'mount.update', target: idParam },
      },
      async (c, { body }) => ok(c, 'mounts.updated', await mounts.update(c.req.param('id')!, body)),
    ),
  );

  app.delete(
    '/admin/mounts/:id',
    route(
      {
        tag,
        summary: 'Deletes a mount; the files in its storage are left alone',
        auth: 'admin',
        audit: { action: 'mount.delete', target: idParam },
      },
      async (c) => {
        await mounts.delete(c.req.param('id')!);
        return ok(c, 'mounts.deleted', null);
      },
    ),
  );

  app.get(
    '/user/mounts',
    route(
      {
        tag,
        summary: "The active mounts on the way to or inside the key's base path",
        auth: 'mount',
      },
      async (c) => ok(c, 'mounts.listed', await mounts.listFor(c.get('principal')!)),
    ),
  );

  app.get(
    '/user/mounts/:id',
    route(
      {
        tag,
        summary: "One active mount on the way to or inside the key's base path",
        description: '404 when unknown or inactive; 403 when the key may not reach it.',
        auth: 'mount',
      },
      async (c) => ok(c, 'mounts.loaded', await mounts.getFor(c.get('principal')!, c.req.param('id')!)),
    ),
  );

  return app;
}
