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
    route({ tag, summary: 'Lists the API keys (never the keys themselves)', auth: 'admin' }, async (c) =>
      ok(c, 'apikeys.listed', await keys.list()),
    ),
  );

  app.post(
    '/admin/api-keys',
    route(
      {
        tag,
        summary: 'Creates an API key; the answer shows the key once',
        auth: 'admin',
        body: apiKeyCreateSchema,
        audit: { action: 'apikey.create' },
      },
      async (c, { body }) => {
        const created = await keys.create(body);
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
        auth: 'admin',
        body: apiKeyUpdateSchema,
        audit: { action: 'apikey.update', target: idParam },
      },
      async (c, { body }) => ok(c, 'apikeys.updated', await keys.update(c.req.param('id')!, body)),
    ),
  );

  app.delete(
    '/admin/api-keys/:id',
    route(
      {
        tag,
        summary: 'Deletes an API key',
        auth: 'admin',
        audit: { action: 'apikey.delete', target: idParam },
      },
      async (c) => {
        await keys.delete(c.req.param('id')!);
        return ok(c, 'apikeys.deleted', null);
      },
    ),
  );

  return app;
}
