/**
 * /api/admin/login, /logout, /change-password and /api/test/admin-token (CloudPaste's, for every
 * person now: a member signs in the same way), and one's own account: /api/auth/me and the sessions
 * at /api/auth/sessions.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { authorize } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../errors/app-error.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { AuthService, ClientInfo } from './auth.service.ts';
import type { UsersService } from '../users/users.service.ts';

/** CloudPaste's login, and the second factor for people who have one (docs/accounts.md). */
const loginSchema = z.object({
  username: z.unknown(),
  password: z.unknown(),
  otp: z.unknown().optional(),
  recovery_code: z.unknown().optional(),
  /** `{challenge_id, response}`: a passkey's assertion (modules/passkeys). */
  passkey: z.unknown().optional(),
});
const changePasswordSchema = z.object({
  currentPassword: z.string().max(1024).optional(),
  newPassword: z.string().max(1024).optional(),
  newUsername: z.string().max(100).optional(),
});

const bearerToken = (c: Context<AppEnv>) => /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
export const clientOf = (c: Context<AppEnv>): ClientInfo => ({
  ip: c.get('clientIp'),
  userAgent: c.req.header('user-agent') ?? null,
});

export function authRoutes(auth: AuthService, users: UsersService) {
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
        const { session, who, door } = await auth.login(body.username, body.password, clientOf(c), body);
        noteAudit(c, { principal: who, ...(door === 'ldap' ? { details: { door } } : {}) });
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
        const token = bearerToken(c);
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
        auth: 'user',
        duringEnrolment: true,
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
          authorize(c, 'admin', { duringEnrolment: true });
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

  const own = 'My account';
  app.get(
    '/auth/me',
    route(
      {
        tag: own,
        summary:
          'Who is signed in: name, role, home folder, paths, quota; `must_enrol` when two factors are required first',
        auth: 'user',
        duringEnrolment: true,
      },
      async (c) => {
        const principal = c.get('principal')!;
        const must =
          (principal.type === 'admin' || principal.type === 'member') && principal.mustEnrol === true;
        return ok(c, 'auth.me', { ...(await users.get(principal.id)), must_enrol: must });
      },
    ),
  );

  app.get(
    '/auth/sessions',
    route(
      {
        tag: own,
        summary: "One's sessions: device, address, last use; `current` marks this one",
        auth: 'user',
      },
      async (c) => ok(c, 'auth.sessions_listed', await auth.sessions(c.get('principal')!.id, bearerToken(c))),
    ),
  );

  app.delete(
    '/auth/sessions',
    route(
      {
        tag: own,
        summary: "Ends every one of one's sessions but this one",
        auth: 'user',
        audit: { action: 'auth.sessions_end_others' },
      },
      async (c) => {
        const ended = await auth.endOtherSessions(c.get('principal')!.id, bearerToken(c));
        noteAudit(c, { details: { ended } });
        return ok(c, 'auth.sessions_ended', { ended });
      },
    ),
  );

  app.delete(
    '/auth/sessions/:id',
    route(
      {
        tag: own,
        summary: "Ends one of one's sessions",
        auth: 'user',
        audit: { action: 'auth.session_end', target: idParam },
      },
      async (c) => {
        await auth.endSession(c.get('principal')!.id, c.req.param('id')!);
        return ok(c, 'auth.session_ended', null);
      },
    ),
  );

  return app;
}
