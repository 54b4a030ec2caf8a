/** /api/admin/api-keys (admin) and /api/test/api-key (the key checking itself). */
import { apiKeyCreateSchema, apiKeyUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import { requireAdmin, requirePrincipal } from '../../http/auth.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../http/errors.ts';
import { readJson } from '../../http/validate.ts';
import type { ApiKeysService } from './api-keys.service.ts';

export function apiKeysRoutes(keys: ApiKeysService) {
  const app = new Hono<AppEnv>();

  app.get('/test/api-key', requirePrincipal, (c) => {
    const principal = c.get('principal')!;
    if (principal.type !== 'apikey') throw forbidden('auth.apikey_required');
    const keyInfo = { id: principal.id, name: principal.name, basic_path: principal.basicPath };
    return ok(c, 'auth.apikey_valid', {
      name: principal.name,
      basic_path: principal.basicPath,
      permissions: principal.permissions,
      key_info: keyInfo,
    });
  });

  app.use('/admin/api-keys', requireAdmin);
  app.use('/admin/api-keys/*', requireAdmin);

  app.get('/admin/api-keys', async (c) => ok(c, 'apikeys.listed', await keys.list()));

  app.post('/admin/api-keys', async (c) => {
    const created = await keys.create(await readJson(c, apiKeyCreateSchema));
    return ok(c, 'apikeys.created', created, 201);
  });

  app.put('/admin/api-keys/:id', async (c) => {
    const updated = await keys.update(c.req.param('id'), await readJson(c, apiKeyUpdateSchema));
    return ok(c, 'apikeys.updated', updated);
  });

  app.delete('/admin/api-keys/:id', async (c) => {
    await keys.delete(c.req.param('id'));
    return ok(c, 'apikeys.deleted', null);
  });

  return app;
}
