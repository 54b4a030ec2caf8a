/**
 * Single sign-on (docs/accounts.md, "Single sign-on"): the admin's providers at
 * /api/admin/oidc-providers, the login page's buttons at /api/auth/oidc/providers, and the browser's
 * round trip through a provider — /api/auth/oidc/:id/start and /callback. Those two are browser
 * navigations, so they answer redirects: to the provider, then to the web app's `/login/oidc` with
 * the session (or the error code) in the fragment, which never reaches a server log.
 */
import { oidcProviderCreateSchema, oidcProviderUpdateSchema } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import { clientOf } from '../auth/auth.routes.ts';
import { oidcErrorCode, type OidcService } from './oidc.service.ts';

const WEB_LANDING = '/login/oidc';

export function oidcRoutes(
  oidc: OidcService,
  options: { config: Pick<Config, 'publicUrl' | 'trustProxyHops'> },
) {
  const app = new Hono<AppEnv>();
  const tag = 'Single sign-on';
  const origin = (c: Context<AppEnv>) => publicOrigin(c, options.config);
  /** Where a failed sign-in lands: the web app, told why. */
  /** A sign-in through a provider, in the audit log (its answers are redirects, so route() cannot tell). */
  const audited = (c: Context<AppEnv>, outcome: 'success' | 'failure', details: Record<string, string>) =>
    c.get('audit').record({
      principal: null,
      ...(details.username ? { triedName: details.username } : {}),
      ip: c.get('clientIp'),
      action: 'auth.login',
      outcome,
      status: outcome === 'success' ? 200 : 403,
      details: {
        door: 'oidc',
        provider: c.req.param('id') ?? '',
        ...(details.reason ? { reason: details.reason } : {}),
      },
    });
  const failed = async (c: Context<AppEnv>, error: unknown) => {
    const code = oidcErrorCode(error);
    const log = c.get('log');
    if (code === 'failed') log.error({ err: error }, 'a single sign-on failed');
    else log.warn({ reason: code, provider: c.req.param('id') }, 'a single sign-on was refused');
    await audited(c, 'failure', { reason: code });
    return c.redirect(`${WEB_LANDING}#error=${code}`, 302);
  };

  app.get(
    '/admin/oidc-providers',
    route(
      { tag, summary: 'The single sign-on providers (client secrets masked)', auth: 'admin' },
      async (c) => ok(c, 'oidc.providers_listed', await oidc.list(origin(c))),
    ),
  );

  app.post(
    '/admin/oidc-providers',
    route(
      {
        tag,
        summary: 'Adds a single sign-on provider; answers the redirect URI to register there',
        auth: 'admin',
        body: oidcProviderCreateSchema,
        audit: { action: 'sso.create' },
      },
      async (c, { body }) => {
        const made = await oidc.create(body, origin(c));
        noteAudit(c, { target: made.id, details: { name: made.name } });
        return ok(c, 'oidc.provider_created', made, 201);
      },
    ),
  );

  app.put(
    '/admin/oidc-providers/:id',
    route(
      {
        tag,
        summary: 'Changes a provider (the masked secret sent back keeps the stored one)',
        auth: 'admin',
        body: oidcProviderUpdateSchema,
        audit: { action: 'sso.update', target: idParam },
      },
      async (c, { body }) =>
        ok(c, 'oidc.provider_updated', await oidc.update(c.req.param('id')!, body, origin(c))),
    ),
  );

  app.delete(
    '/admin/oidc-providers/:id',
    route(
      {
        tag,
        summary: 'Removes a provider and the links of people to it',
        auth: 'admin',
        audit: { action: 'sso.delete', target: idParam },
      },
      async (c) => {
        await oidc.delete(c.req.param('id')!);
        return ok(c, 'oidc.provider_deleted', null);
      },
    ),
  );

  app.get(
    '/auth/oidc/providers',
    route({ tag, summary: 'The enabled providers, for the login page', auth: 'none' }, async (c) =>
      ok(c, 'oidc.providers_listed', await oidc.buttons()),
    ),
  );

  app.get(
    '/auth/oidc/:id/start',
    route(
      {
        tag,
        summary: 'Redirects the browser to the provider (authorization code, PKCE S256, state, nonce)',
        auth: 'none',
        produces: 'redirect',
      },
      async (c) => {
        try {
          return c.redirect(await oidc.start(c.req.param('id')!, origin(c), clientOf(c).ip), 302);
        } catch (error) {
          return failed(c, error);
        }
      },
    ),
  );

  app.get(
    '/auth/oidc/:id/callback',
    route(
      {
        tag,
        summary: 'Where the provider sends the browser back: redirects to /login/oidc with a session',
        auth: 'none',
        produces: 'redirect',
      },
      async (c) => {
        try {
          const session = await oidc.finish(c.req.param('id')!, new URL(c.req.url), origin(c), clientOf(c));
          const { token, expiresAt, username } = session;
          await audited(c, 'success', { username });
          const fragment = new URLSearchParams({ token, expiresAt, username });
          return c.redirect(`${WEB_LANDING}#${fragment.toString()}`, 302);
        } catch (error) {
          return failed(c, error);
        }
      },
    ),
  );

  return app;
}
