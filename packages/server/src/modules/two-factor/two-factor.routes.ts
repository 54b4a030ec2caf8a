/** One's own two-factor sign-in: /api/auth/two-factor… (docs/accounts.md). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { route } from '../../http/route-docs.ts';
import type { UsersService } from '../users/users.service.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const codeBody = z.object({ code: z.string().max(20).optional() });
const factorBody = z.object({
  otp: z.string().max(20).optional(),
  recovery_code: z.string().max(40).optional(),
});

export function twoFactorRoutes(twoFactor: TwoFactorService, users: UsersService) {
  const app = new Hono<AppEnv>();
  const tag = 'My account';
  /** The signed-in person's row, as it is now. */
  const me = (id: string) => users.row(id);

  app.get(
    '/auth/two-factor',
    route(
      {
        tag,
        summary: 'Whether two-factor sign-in is on and required, and how many recovery codes are left',
        auth: 'user',
        duringEnrolment: true,
      },
      async (c) => ok(c, 'two_factor.status', await twoFactor.status(await me(c.get('principal')!.id))),
    ),
  );

  app.post(
    '/auth/two-factor/totp/setup',
    route(
      {
        tag,
        summary: 'A new authenticator secret (an otpauth:// link for a QR code), kept aside until enabled',
        auth: 'user',
        duringEnrolment: true,
      },
      async (c) => ok(c, 'two_factor.setup_ready', await twoFactor.setup(await me(c.get('principal')!.id))),
    ),
  );

  app.post(
    '/auth/two-factor/totp/enable',
    route(
      {
        tag,
        summary: 'Turns TOTP on with a first code; answers ten recovery codes, shown once',
        auth: 'user',
        duringEnrolment: true,
        body: codeBody,
        audit: { action: 'two_factor.enable' },
      },
      async (c, { body }) =>
        ok(c, 'two_factor.enabled', await twoFactor.enable(await me(c.get('principal')!.id), body.code)),
    ),
  );

  app.post(
    '/auth/two-factor/totp/disable',
    route(
      {
        tag,
        summary: 'Turns two-factor sign-in off; takes a current code or a recovery code',
        auth: 'user',
        body: factorBody,
        audit: { action: 'two_factor.disable' },
      },
      async (c, { body }) => {
        await twoFactor.disable(await me(c.get('principal')!.id), body);
        return ok(c, 'two_factor.disabled', null);
      },
    ),
  );

  app.post(
    '/auth/two-factor/recovery-codes',
    route(
      {
        tag,
        summary: 'New recovery codes (the old ones stop); takes a current code or a recovery code',
        auth: 'user',
        body: factorBody,
        audit: { action: 'two_factor.recovery_codes' },
      },
      async (c, { body }) =>
        ok(c, 'two_factor.codes_renewed', await twoFactor.regenerate(await me(c.get('principal')!.id), body)),
    ),
  );

  return app;
}
