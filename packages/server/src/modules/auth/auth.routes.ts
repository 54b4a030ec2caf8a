/** /api/admin/login, /logout, /change-password and /api/test/admin-token. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { authorize } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../errors/app-error.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import type { AuthService } from './auth.service.ts';

const loginSchema = z.object({ username: z.unknown(), password: z.unknown() });
const changePasswordSchema = z.object({
  currentPassword: z.string().max(1024).optional(),
  newPassword: z.string().max(1024).optional(),
  newUsername: z.string().max(100).optional(),
});

export function authRoutes(auth: AuthService) {
  const app = new Hono<AppEnv>();
  const tag = 'Admin account';

  app.post(
    '/admin/login',
    route(
      {
        tag,
        summary: 'Logs in; answers the session token',
        auth: 'none',
        body: loginSchema,
        audit: { action: 'auth.login' },
      },
      async (c, { body }) => {
        // A failed sign-in is recorded under the name it tried (never the password).
        if (typeof body.username === 'string') noteAudit(c, { triedName: body.username.trim() });
        const session = await auth.login(body.username, body.password, c.get('clientIp'));
        noteAudit(c, { principal: await auth.resolveSession(session.token) });
        return ok(c, 'auth.login_ok', session);
      },
    ),
  );

  // Idempotent: 200 whatever the credential — already revoked, expired, unknown, an API key, or none.
  // The CloudPaste client answers a 401 here by logging out again, for ever.
  app.post(
    '/admin/logout',
    route(
      {
        tag,
        summary: 'Revokes the session token it is called with (200 whatever the credential)',
        auth: 'none',
        audit: { action: 'auth.logout' },
      },
      async (c) => {
        const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
        if (token) await auth.logout(token);
        return ok(c, 'auth.logout_ok', null);
      },
    ),
  );

  app.post(
    '/admin/change-password',
    route(
      {
        tag,
        summary: 'Changes the username and/or password; signs out every session',
        auth: 'admin',
        body: changePasswordSchema,
        audit: { action: 'auth.change_password' },
      },
      async (c, { body }) => {
        await auth.changePassword(c.get('principal')!.id, body);
        return ok(c, 'auth.changed', null);
      },
    ),
  );

  app.get(
    '/test/admin-token',
    route(
      {
        tag,
        summary: 'Whether an admin token is still valid (401 once it is not); answers the account name',
        auth: 'none',
        // An API key is a valid credential but not an admin token: 403, not 401, so its holder stays logged in.
        precheck: async (c) => {
          if (c.get('principal')?.type === 'apikey') throw forbidden('auth.admin_token_required');
          authorize(c, 'admin');
        },
      },
      // The name lets a reloaded page show who is signed in (CloudPaste's answer has no data; its
      // client only checks the status).
      (c) => {
        const principal = c.get('principal');
        return ok(c, 'auth.token_valid', {
          username: principal?.type === 'admin' ? principal.username : null,
        });
      },
    ),
  );

  return app;
}
