/**
 * Bundle routes (docs/api.md "Bundles"):
 *   POST   /api/bundles                    make one (an admin, a member, a key with `file` or `text`)
 *   GET    /api/bundles                    the caller's (an admin: everyone's)
 *   GET|PUT|DELETE /api/bundles/:slug      read, change, revoke (410 from then on)
 *   GET    /api/public/bundles/:slug       the page's data (counts the visit; none while protected)
 *   POST   /api/public/bundles/:slug/verify {password}
 *   GET    /api/public/bundles/:slug/zip   every item as one streamed zip
 *   GET    /api/public/bundles/:slug/items/:n[/download]
 */
import { bundleCreateSchema, bundleUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import { badRequest } from '../../errors/app-error.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok, okWith } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import { type DeliveryDeps, deliverItem, deliverZip } from './bundles.delivery.ts';

const passwordBody = z.object({ password: z.string().max(200).optional() });
const infoQuery = z.object({ token: z.string().max(1024).optional() });
const deliveryQuery = z.object({
  token: z.string().max(1024).optional(),
  password: z.string().max(1024).optional(),
});
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
const slugParam = (c: { req: { param(name: string): string | undefined } }) => c.req.param('slug');

/** The item number of `…/items/:n`: a whole number, else 404 as for an item that is not there. */
function position(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) throw badRequest('bundles.item_not_found');
  return Number(raw);
}

export function bundlesRoutes(deps: DeliveryDeps, config: Pick<Config, 'publicUrl' | 'trustProxyHops'>) {
  const { bundles } = deps;
  const app = new Hono<AppEnv>();
  const tag = 'Bundles';

  app.post(
    '/bundles',
    route(
      {
        tag,
        summary: 'Makes a bundle: one link for several of your file shares, pastes and mount files',
        description:
          "Each item is `{type, value}`: `file` (a file share's slug), `paste` (a paste's slug) or `path` " +
          '(a file in the mounts). Shares must be your own (an admin may bundle any); a key needs `file` ' +
          'for file shares, `text` for pastes and `mount` for paths. At most 1,000 items.',
        auth: 'principal',
        body: bundleCreateSchema,
        audit: { action: 'bundle.create' },
      },
      async (c, { body }) => {
        const created = await bundles.create(c.get('principal')!, body, publicOrigin(c, config));
        noteAudit(c, { target: created.slug });
        return okWith(c, 'bundles.created', created, {}, 201);
      },
    ),
  );

  app.get(
    '/bundles',
    route(
      {
        tag,
        summary: "Lists your bundles (an admin: everyone's), newest first",
        auth: 'principal',
        query: listQuery,
      },
      async (c, { query }) => {
        const { bundles: items, total } = await bundles.list(
          c.get('principal')!,
          query,
          publicOrigin(c, config),
        );
        return ok(c, 'bundles.listed', {
          bundles: items,
          pagination: {
            total,
            limit: query.limit,
            offset: query.offset,
            hasMore: query.offset + items.length < total,
          },
        });
      },
    ),
  );

  app.get(
    '/bundles/:slug',
    route({ tag, summary: 'One of your bundles with what its items name', auth: 'principal' }, async (c) =>
      ok(
        c,
        'bundles.loaded',
        await bundles.get(c.get('principal')!, c.req.param('slug')!, publicOrigin(c, config)),
      ),
    ),
  );

  app.put(
    '/bundles/:slug',
    route(
      {
        tag,
        summary:
          'Changes a bundle: title, password (set, or remove with "" / null), expiry, views, items (replaced)',
        auth: 'principal',
        body: bundleUpdateSchema,
        audit: { action: 'bundle.update', target: slugParam },
      },
      async (c, { body }) =>
        ok(
          c,
          'bundles.updated',
          await bundles.update(c.get('principal')!, c.req.param('slug')!, body, publicOrigin(c, config)),
        ),
    ),
  );

  app.delete(
    '/bundles/:slug',
    route(
      {
        tag,
        summary: 'Revokes a bundle: its link answers 410 from the next request on',
        auth: 'principal',
        audit: { action: 'bundle.revoke', target: slugParam },
      },
      async (c) =>
        ok(c, 'bundles.revoked_now', await bundles.revoke(c.get('principal')!, c.req.param('slug')!)),
    ),
  );

  app.get(
    '/public/bundles/:slug',
    route(
      {
        tag,
        summary: "A bundle's page: title, expiry, views and its items with links (none while protected)",
        description:
          'Opening an unprotected bundle counts one visit and answers a visit token that every link carries ' +
          '(`?token=`, 30 minutes); passing that token back (`?token=`) counts nothing more.',
        auth: 'none',
        query: infoQuery,
      },
      async (c, { query }) =>
        ok(
          c,
          'bundles.loaded',
          await bundles.info(c.req.param('slug')!, query.token, publicOrigin(c, config)),
        ),
    ),
  );

  app.post(
    '/public/bundles/:slug/verify',
    route(
      {
        tag,
        summary: 'Checks the password and counts the visit; answers the items with links',
        auth: 'none',
        body: passwordBody,
      },
      async (c, { body }) => {
        const { view, passwordNeeded } = await bundles.verify(
          c.req.param('slug')!,
          body.password,
          c.get('clientIp'),
          publicOrigin(c, config),
        );
        return ok(c, passwordNeeded ? 'bundles.verified' : 'bundles.no_password_needed', view);
      },
    ),
  );

  // GET handlers answer HEAD too (without a body, counting nothing).
  const delivery = { tag, auth: 'none', query: deliveryQuery, produces: 'bytes' } as const;
  app.get(
    '/public/bundles/:slug/zip',
    route(
      { ...delivery, summary: 'Every item of the bundle as one zip, streamed (exact Content-Length)' },
      (c, { query }) => deliverZip(c, deps, query),
    ),
  );
  app.get(
    '/public/bundles/:slug/items/:n',
    route(
      { ...delivery, summary: 'One item, shown in the browser when that is safe (Range, ETag)' },
      (c, { query }) => deliverItem(c, deps, position(c.req.param('n')), 'view', query),
    ),
  );
  app.get(
    '/public/bundles/:slug/items/:n/download',
    route({ ...delivery, summary: 'One item as a download (Range, ETag)' }, (c, { query }) =>
      deliverItem(c, deps, position(c.req.param('n')), 'download', query),
    ),
  );

  return app;
}
