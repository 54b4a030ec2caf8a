/** /api/admin/api-keys (admin) and /api/test/api-key (the key checking itself). */
import { apiKeyCreateSchema, apiKeyUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../errors/app-error.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { ApiKeysService } from './api-keys.service.ts';

export function apiKeysRoutes(keys: ApiKeysService) {
  const app = new Hono<AppEnv>();

  const tag = 'API keys';
  app.get(
    '/test/api-key',
    route(
      { tag, summary: 'Checks the calling API key: its permissions and base path', auth: 'principal' },
      (c) => {
        const principal = c.get('principal')!;
        if (principal.type !== 'apikey') throw forbidden('auth.apikey_required');
        const keyInfo = { id: principal.id, name: principal.name, basic_path: principal.basicPath };
        return ok(c, 'auth.apikey_valid', {
          name: principal.name,
          basic_path: principal.basicPath,
          permissions: principal.permissions,
          key_info: keyInfo,
        });
      },
    ),
  );

  app.get(
    '/admin/api-keys',
    route(
      {
        tag,
        summary: "Lists the API keys (never the keys themselves): an admin's all, a member's their own",
        auth: 'user',
      },
      async (c) => ok(c, 'apikeys.listed', await keys.list(c.get('principal')!)),
    ),
  );

  app.post(
    '/admin/api-keys',
    route(
      {
        tag,
        summary: 'Creates an API key; the answer shows the key once',
        auth: 'user',
        body: apiKeyCreateSchema,
        audit: { action: 'apikey.create' },
      },
      async (c, { body }) => {
        const created = await keys.create(c.get('principal')!, body);
        noteAudit(c, { target: created.id });
        return ok(c, 'apikeys.created', created, 201);
      },
    ),
  );

  app.put(
    '/admin/api-keys/:id',
    route(
      {
        tag,
        summary: 'Changes an API key',
        auth: 'user',
        body: apiKeyUpdateSchema,
        audit: { action: 'apikey.update', target: idParam },
      },
      async (c, { body }) =>
        ok(c, 'apikeys.updated', await keys.update(c.get('principal')!, c.req.param('id')!, body)),
    ),
  );

  app.delete(
    '/admin/api-keys/:id',
    route(
      {
        tag,
        summary: 'Deletes an API key',
        auth: 'user',
        audit: { action: 'apikey.delete', target: idParam },
      },
      async (c) => {
        await keys.delete(c.get('principal')!, c.req.param('id')!);
        return ok(c, 'apikeys.deleted', null);
      },
    ),
  );

  return app;
}
