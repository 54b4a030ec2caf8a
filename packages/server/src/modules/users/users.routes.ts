/**
 * People, for the admin (/api/admin/users, /api/admin/invites), and the invite link's own routes
 * (/api/public/invites/:token) for the person who opens it (docs/accounts.md).
 */
import {
  inviteAcceptSchema,
  inviteCreateSchema,
  userCreateSchema,
  userDeleteSchema,
  userUpdateSchema,
} from '@cubby/shared';
import { type Context, Hono } from 'hono';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import type { InvitesService } from './invites.service.ts';
import type { UsersService } from './users.service.ts';

/** Where the web app opens an invite (packages/web's route). */
export const invitePath = (token: string) => `/invite/${encodeURIComponent(token)}`;

export function usersRoutes(
  users: UsersService,
  invites: InvitesService,
  options: { config: Pick<Config, 'publicUrl' | 'trustProxyHops'> },
) {
  const app = new Hono<AppEnv>();
  const tag = 'People';
  const actor = (c: Context<AppEnv>) => c.get('principal')!;

  app.get(
    '/admin/users',
    route(
      { tag, summary: 'Lists the people with their role, status, home folder and paths', auth: 'admin' },
      async (c) => ok(c, 'users.listed', await users.list()),
    ),
  );

  app.post(
    '/admin/users',
    route(
      {
        tag,
        summary: 'Creates a person (member by default)',
        auth: 'admin',
        body: userCreateSchema,
        audit: { action: 'user.create' },
      },
      async (c, { body }) => {
        const user = await users.create(body);
        noteAudit(c, { target: user.id, details: { username: user.username, role: user.role } });
        return ok(c, 'users.created', user, 201);
      },
    ),
  );

  app.get(
    '/admin/users/:id',
    route({ tag, summary: 'One person', auth: 'admin' }, async (c) =>
      ok(c, 'users.loaded', await users.get(c.req.param('id')!)),
    ),
  );

  app.put(
    '/admin/users/:id',
    route(
      {
        tag,
        summary: 'Changes a person: role, status (disable ends their sessions), home, quota, paths, password',
        auth: 'admin',
        body: userUpdateSchema,
        audit: { action: 'user.update', target: idParam },
      },
      async (c, { body }) => {
        // Which fields changed, never to what a password changed.
        noteAudit(c, { details: { changed: Object.keys(body).sort().join(',') } });
        return ok(c, 'users.updated', await users.update(c.req.param('id')!, body));
      },
    ),
  );

  app.delete(
    '/admin/users/:id',
    route(
      {
        tag,
        summary: 'Deletes a person; `shares`: keep, transfer (to `transfer_to`, an admin) or delete',
        auth: 'admin',
        body: userDeleteSchema,
        audit: { action: 'user.delete', target: idParam },
      },
      async (c, { body }) => {
        noteAudit(c, { details: { shares: body.shares } });
        await users.delete(actor(c), c.req.param('id')!, body);
        return ok(c, 'users.deleted', null);
      },
    ),
  );

  app.get(
    '/admin/invites',
    route({ tag, summary: 'Lists invites (never their links)', auth: 'admin' }, async (c) =>
      ok(c, 'invites.listed', await invites.list()),
    ),
  );

  app.post(
    '/admin/invites',
    route(
      {
        tag,
        summary: 'Makes a one-time invite link; the answer shows it once',
        auth: 'admin',
        body: inviteCreateSchema,
        audit: { action: 'invite.create' },
      },
      async (c, { body }) => {
        const invite = await invites.create(actor(c).id, body);
        noteAudit(c, { target: invite.id, details: { role: invite.role } });
        const url = publicOrigin(c, options.config) + invitePath(invite.token);
        return ok(c, 'invites.created', { ...invite, url }, 201);
      },
    ),
  );

  app.delete(
    '/admin/invites/:id',
    route(
      {
        tag,
        summary: 'Revokes an invite',
        auth: 'admin',
        audit: { action: 'invite.revoke', target: idParam },
      },
      async (c) => {
        await invites.revoke(c.req.param('id')!);
        return ok(c, 'invites.revoked', null);
      },
    ),
  );

  app.get(
    '/public/invites/:token',
    route(
      { tag, summary: 'What an invite offers (404 unknown, 410 used or expired)', auth: 'none' },
      async (c) => ok(c, 'invites.loaded', await invites.describe(c.req.param('token')!)),
    ),
  );

  app.post(
    '/public/invites/:token/accept',
    route(
      {
        tag,
        summary: 'Makes the account an invite offers',
        auth: 'none',
        body: inviteAcceptSchema,
        audit: { action: 'invite.accept' },
      },
      async (c, { body }) => {
        noteAudit(c, { triedName: body.username });
        const user = await invites.accept(c.req.param('token')!, body);
        noteAudit(c, { target: user.id, details: { role: user.role } });
        return ok(c, 'invites.accepted', { id: user.id, username: user.username, role: user.role }, 201);
      },
    ),
  );

  return app;
}
