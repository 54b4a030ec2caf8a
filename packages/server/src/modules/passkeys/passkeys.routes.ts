/**
 * Passkeys (docs/accounts.md "Passkeys"): one's own at /api/auth/passkeys…, and the sign-in with
 * one at /api/public/passkeys/login… (its options serve the second factor after a password too).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { passkeyNameSchema } from '@cubby/shared';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import { clientOf } from '../auth/auth.routes.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { userPrincipal, type UsersService } from '../users/users.service.ts';
import type { PasskeysService } from './passkeys.service.ts';

/** What the browser answered (`startRegistration` / `startAuthentication`), checked by the library. */
const ceremony = {
  challenge_id: z.string().min(1).max(100),
  response: z.record(z.string(), z.unknown()),
};
const registerBody = z.object({ ...ceremony, name: passkeyNameSchema });
const loginBody = z.object(ceremony);
const renameBody = z.object({ name: passkeyNameSchema });

export function passkeysRoutes(
  passkeys: PasskeysService,
  deps: { auth: AuthService; users: UsersService; config: Pick<Config, 'publicUrl' | 'trustProxyHops'> },
) {
  const app = new Hono<AppEnv>();
  const tag = 'My account';
  const origin = (c: Context<AppEnv>) => publicOrigin(c, deps.config);
  const me = (c: Context<AppEnv>) => c.get('principal')!.id;

  app.get(
    '/auth/passkeys',
    route(
      {
        tag,
        summary: "One's passkeys: name, kind, when added and last used (never a key)",
        auth: 'user',
        duringEnrolment: true,
      },
      async (c) => ok(c, 'passkeys.listed', await passkeys.list(me(c))),
    ),
  );

  app.post(
    '/auth/passkeys/register/options',
    route(
      {
        tag,
        summary: 'Options for the browser to make a new passkey (valid five minutes, once)',
        auth: 'user',
        duringEnrolment: true,
      },
      async (c) =>
        ok(c, 'passkeys.options', await passkeys.registrationOptions(await deps.users.row(me(c)), origin(c))),
    ),
  );

  app.post(
    '/auth/passkeys/register',
    route(
      {
        tag,
        summary:
          "Keeps the passkey the browser made; a person's first second factor also answers ten recovery codes, shown once",
        auth: 'user',
        duringEnrolment: true,
        body: registerBody,
        audit: { action: 'passkey.create' },
      },
      async (c, { body }) => {
        const made = await passkeys.register(await deps.users.row(me(c)), body);
        noteAudit(c, { target: made.id, details: { name: made.name } });
        return ok(c, 'passkeys.created', made, 201);
      },
    ),
  );

  app.patch(
    '/auth/passkeys/:id',
    route(
      {
        tag,
        summary: 'Renames one of your passkeys',
        auth: 'user',
        body: renameBody,
        audit: { action: 'passkey.update', target: idParam },
      },
      async (c, { body }) =>
        ok(c, 'passkeys.renamed', await passkeys.rename(me(c), c.req.param('id')!, body.name)),
    ),
  );

  app.delete(
    '/auth/passkeys/:id',
    route(
      {
        tag,
        summary: 'Removes one of your passkeys',
        auth: 'user',
        audit: { action: 'passkey.delete', target: idParam },
      },
      async (c) => {
        await passkeys.remove(await deps.users.row(me(c)), c.req.param('id')!);
        return ok(c, 'passkeys.removed', null);
      },
    ),
  );

  app.post(
    '/public/passkeys/login/options',
    route(
      {
        tag: 'Admin account',
        summary:
          'Options for signing in with a passkey (any of this site’s; user verification required), or for a passkey as the second factor',
        auth: 'none',
      },
      async (c) => ok(c, 'passkeys.options', await passkeys.loginOptions(origin(c), c.get('clientIp'))),
    ),
  );

  app.post(
    '/public/passkeys/login',
    route(
      {
        tag: 'Admin account',
        summary: 'Signs in with a passkey; answers the session token as the password login does',
        auth: 'none',
        body: loginBody,
        audit: { action: 'auth.login' },
      },
      async (c, { body }) => {
        noteAudit(c, { details: { method: 'passkey' } });
        const user = await passkeys.signIn(body, c.get('clientIp'));
        const session = await deps.auth.openSession(user, clientOf(c));
        noteAudit(c, { principal: userPrincipal(user, []) });
        return ok(c, 'auth.login_ok', session);
      },
    ),
  );

  return app;
}
