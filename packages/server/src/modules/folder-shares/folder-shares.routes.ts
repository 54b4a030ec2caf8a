/**
 * Folder-share routes (docs/api.md "Folder shares"). Made by POST /api/fs/create-share on a folder
 * (modules/fs/fs.routes.ts). Public, no account: the details and visit token
 * (/api/public/folders/:slug, …/verify), a folder's listing, a file's bytes, a folder's zip; the
 * owner's (or the admin's) management under /api/folder-shares.
 */
import { mimeFromFilename, slugSchema } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { route } from '../../http/route-docs.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Vfs } from '../../vfs/vfs.ts';
import { fileUpdateSchema } from '../files/files.routes.ts';
import { servingHeaders } from '../files/files.serving.ts';
import type { FsZipService } from '../fs/fs-zip.ts';
import { zipResponse } from '../fs/fs-zip.routes.ts';
import type { FolderSharesService } from './folder-shares.service.ts';

const PATH_MAX = 4096;
/** The settings of a folder share, at creation and on update: a file share's, and a title. */
export const folderShareSettingsSchema = fileUpdateSchema.omit({ use_proxy: true, slug: true }).extend({
  title: z.string().max(200, { message: 'title_too_long' }).nullish(),
  slug: z.union([z.literal(''), z.null(), slugSchema]).optional(),
});
const credentials = {
  token: z.string().max(1024).optional(),
  password: z.string().max(1024).optional(),
};
const infoQuery = z.object({ password: credentials.password });
const passwordBody = z.object({ password: z.string().max(200).optional() });
const pathQuery = z.object({ path: z.string().max(PATH_MAX).optional(), ...credentials });
const downloadQuery = pathQuery.extend({
  /** `1`: shown in the browser when that is safe (the view rules of file shares), else a download. */
  inline: z.enum(['1', '0', 'true', 'false']).optional(),
});

export function folderSharesRoutes(
  shares: FolderSharesService,
  deps: { vfs: Vfs; zips: FsZipService; clock: Clock; config: Pick<Config, 'publicUrl' | 'trustProxyHops'> },
) {
  const app = new Hono<AppEnv>();
  const tag = 'Folder shares';
  const origin = (c: Context<AppEnv>) => publicOrigin(c, deps.config);
  const opened = (c: Context<AppEnv>, query: { token?: string | undefined; password?: string | undefined }) =>
    shares.open(c.req.param('slug')!, { ...query, clientIp: c.get('clientIp') });

  app.get(
    '/public/folders/:slug',
    route(
      {
        tag,
        summary:
          "A folder share's details; counts the visit and answers its `token` unless a password is needed",
        description:
          'A protected share answers `requires_password: true` and no token until `password` is sent ' +
          '(here or to …/verify). 410 when revoked, expired, used up or its folder is gone.',
        auth: 'none',
        query: infoQuery,
      },
      async (c, { query }) =>
        ok(
          c,
          'folder_shares.loaded',
          await shares.info(c.req.param('slug')!, { password: query.password, clientIp: c.get('clientIp') }),
        ),
    ),
  );

  app.post(
    '/public/folders/:slug/verify',
    route(
      {
        tag,
        summary: 'Checks the password of a folder share; counts the visit and answers its `token`',
        auth: 'none',
        body: passwordBody,
      },
      async (c, { body }) =>
        ok(
          c,
          'folder_shares.verified',
          await shares.info(
            c.req.param('slug')!,
            { password: body.password, clientIp: c.get('clientIp') },
            true,
          ),
        ),
    ),
  );

  app.get(
    '/public/folders/:slug/list',
    route(
      {
        tag,
        summary: 'Lists a folder of a folder share (`path` relative to the shared folder; `/` is it)',
        description: 'With the visit `token` (or the `password`; without either a visit is counted).',
        auth: 'none',
        query: pathQuery,
      },
      async (c, { query }) =>
        ok(c, 'folder_shares.listed_items', await shares.listing(await opened(c, query), query.path)),
    ),
  );

  app.get(
    '/public/folders/:slug/download',
    route(
      {
        tag,
        summary: 'A file of a folder share (`path` relative to the shared folder; Range, ETag)',
        description:
          'An attachment; `inline=1` shows it in the browser when that is safe (images, media, PDF, ' +
          'text as plain text), as a file share’s view route does.',
        auth: 'none',
        query: downloadQuery,
        produces: 'bytes',
      },
      async (c, { query }) => {
        const { at, entry } = await shares.file(await opened(c, query), query.path);
        const inline = query.inline === '1' || query.inline === 'true';
        return deps.vfs.serve(c, at, {
          filename: entry.name,
          serve: servingHeaders(
            entry.name,
            entry.contentType ?? mimeFromFilename(entry.name),
            inline ? 'view' : 'download',
          ),
          missing: 'folder_shares.file_not_found',
        });
      },
    ),
  );

  app.get(
    '/public/folders/:slug/zip',
    route(
      {
        tag,
        summary: 'A folder of a folder share as a zip streamed by the server (`path` relative; `/` is it)',
        description: 'The bounds of the explorer’s zip downloads apply (ZIP_MAX_ENTRIES: 400 above it).',
        auth: 'none',
        query: pathQuery,
        produces: 'bytes',
      },
      async (c, { query }) => {
        const share = await opened(c, query);
        const path = shares.below(share, query.path);
        const plan = await deps.zips.plan(share.visitor, [path], c.req.raw.signal);
        return zipResponse(c, plan, deps.clock.now());
      },
    ),
  );

  // ---- management -------------------------------------------------------------------------------

  app.get(
    '/folder-shares',
    route(
      {
        tag,
        summary: 'Lists folder shares: your own (the admin: everyone’s), newest first',
        auth: 'mount',
      },
      async (c) => ok(c, 'folder_shares.listed', await shares.list(c.get('principal')!, origin(c))),
    ),
  );

  app.put(
    '/folder-shares/:slug',
    route(
      {
        tag,
        summary: 'Changes a folder share (title, remark, password, expiry, view limit, link suffix)',
        auth: 'mount',
        body: folderShareSettingsSchema,
        audit: { action: 'folder_share.update', target: (c) => c.req.param('slug') },
      },
      async (c, { body }) =>
        ok(
          c,
          'folder_shares.updated',
          await shares.update(c.get('principal')!, c.req.param('slug')!, body, origin(c)),
        ),
    ),
  );

  app.delete(
    '/folder-shares/:slug',
    route(
      {
        tag,
        summary: 'Revokes a folder share: its link answers 410 at once (the folder stays)',
        auth: 'mount',
        audit: { action: 'folder_share.revoke', target: (c) => c.req.param('slug') },
      },
      async (c) =>
        ok(
          c,
          'folder_shares.revoked',
          await shares.revoke(c.get('principal')!, c.req.param('slug')!, origin(c)),
        ),
    ),
  );

  return app;
}
