/** One's own app passwords: /api/auth/app-passwords (docs/accounts.md). */
import { appPasswordCreateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { AppPasswordsService } from './app-passwords.service.ts';

export function appPasswordsRoutes(appPasswords: AppPasswordsService) {
  const app = new Hono<AppEnv>();
  const tag = 'My account';

  app.get(
    '/auth/app-passwords',
    route({ tag, summary: "One's app passwords (never the passwords)", auth: 'user' }, async (c) =>
      ok(c, 'app_passwords.listed', await appPasswords.list(c.get('principal')!.id)),
    ),
  );

  app.post(
    '/auth/app-passwords',
    route(
      {
        tag,
        summary: 'Makes an app password for WebDAV (read or write, optionally one folder); shown once',
        auth: 'user',
        body: appPasswordCreateSchema,
        audit: { action: 'app_password.create' },
      },
      async (c, { body }) => {
        const made = await appPasswords.create(c.get('principal')!.id, body);
        noteAudit(c, { target: made.id, details: { name: made.name, access: made.access, path: made.path } });
        return ok(c, 'app_passwords.created', made, 201);
      },
    ),
  );

  app.delete(
    '/auth/app-passwords/:id',
    route(
      {
        tag,
        summary: 'Revokes an app password at once',
        auth: 'user',
        audit: { action: 'app_password.revoke', target: idParam },
      },
      async (c) => {
        await appPasswords.revoke(c.get('principal')!.id, c.req.param('id')!);
        return ok(c, 'app_passwords.revoked', null);
      },
    ),
  );

  return app;
}
