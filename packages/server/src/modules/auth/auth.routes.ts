/** /api/admin/login, /logout, /change-password and /api/test/admin-token. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { requireAdmin } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../http/errors.ts';
import { readJson } from '../../http/validate.ts';
import type { AuthService } from './auth.service.ts';

const loginSchema = z.object({ username: z.unknown(), password: z.unknown() });
const changePasswordSchema = z.object({
  currentPassword: z.string().optional(),
  newPassword: z.string().optional(),
  newUsername: z.string().optional(),
});

export function authRoutes(auth: AuthService) {
  const app = new Hono<AppEnv>();

  app.post('/admin/login', async (c) => {
    const body = await readJson(c, loginSchema);
    const session = await auth.login(body.username, body.password, c.get('clientIp'));
    return ok(c, 'auth.login_ok', session);
  });

  // Idempotent: 200 whatever the credential — already revoked, expired, unknown, an API key, or none.
  // The CloudPaste client answers a 401 here by logging out again, for ever.
  app.post('/admin/logout', async (c) => {
    const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (token) await auth.logout(token);
    return ok(c, 'auth.logout_ok', null);
  });

  app.post('/admin/change-password', requireAdmin, async (c) => {
    const principal = c.get('principal')!;
    await auth.changePassword(principal.id, await readJson(c, changePasswordSchema));
    return ok(c, 'auth.changed', null);
  });

  app.get(
    '/test/admin-token',
    async (c, next) => {
      // An API key is a valid credential but not an admin token: 403, not 401, so its holder stays logged in.
      if (c.get('principal')?.type === 'apikey') throw forbidden('auth.admin_token_required');
      return requireAdmin(c, next);
    },
    (c) => ok(c, 'auth.token_valid', null),
  );

  return app;
}
