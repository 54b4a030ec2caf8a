/**
 * LDAP sign-in's settings (docs/accounts.md, "LDAP"): the one directory at /api/admin/ldap (the
 * bind password masked), and its connection test. Signing in itself is the password login's
 * (modules/auth): the form's and WebDAV's Basic alike.
 */
import { ldapConfigSchema, ldapTestSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import type { LdapService } from './ldap.service.ts';

export function ldapRoutes(ldap: LdapService) {
  const app = new Hono<AppEnv>();
  const tag = 'LDAP';

  app.get(
    '/admin/ldap',
    route({ tag, summary: 'The LDAP directory settings (bind password masked)', auth: 'admin' }, async (c) =>
      ok(c, 'ldap.loaded', await ldap.view()),
    ),
  );

  app.put(
    '/admin/ldap',
    route(
      {
        tag,
        summary: 'Saves the LDAP directory settings (the masked password sent back keeps the stored one)',
        auth: 'admin',
        body: ldapConfigSchema,
        audit: { action: 'ldap.update' },
      },
      async (c, { body }) => {
        const saved = await ldap.save(body);
        noteAudit(c, { details: { enabled: String(saved.enabled), url: saved.url } });
        return ok(c, 'ldap.saved', saved);
      },
    ),
  );

  app.post(
    '/admin/ldap/test',
    route(
      {
        tag,
        summary: 'Tries LDAP settings step by step: reach, TLS, service bind, the search for a username',
        auth: 'admin',
        body: ldapTestSchema,
      },
      async (c, { body }) => ok(c, 'ldap.tested', await ldap.test(body)),
    ),
  );

  return app;
}
