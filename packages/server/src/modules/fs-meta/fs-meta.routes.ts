/**
 * Folder rules (CloudPaste 1.9's routes, admin only: GET /api/fs-meta/list, GET|PUT|DELETE
 * /api/fs-meta/:id, POST /api/fs-meta/create) and the folder-password check any visitor may call
 * (POST /api/fs/meta/password/verify, under the share-password limits). docs/api.md, "Folder rules".
 */
import { fsMetaBodySchema } from '@cubby/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { idParam, route } from '../../http/route-docs.ts';
import type { FsMetaService } from './fs-meta.service.ts';

const verifyBody = z.object({
  path: z.string({ error: 'path_required' }).max(4096),
  password: z.string({ error: 'password_required' }).max(1024),
});

export function fsMetaRoutes(rules: FsMetaService) {
  const app = new Hono<AppEnv>();
  const tag = 'Folder rules';

  app.get(
    '/fs-meta/list',
    route(
      { tag, summary: 'Every folder rule (never a password: `has_password`)', auth: 'admin' },
      async (c) => ok(c, 'fs_meta.listed', await rules.list()),
    ),
  );

  app.post(
    '/fs-meta/create',
    route(
      {
        tag,
        summary: 'Makes a folder rule: README header/footer, hide patterns, password, each inheriting or not',
        description:
          '`path` a virtual folder; `hide_patterns` globs matched against names (at most 100, each at most ' +
          '200 characters, no `/`); `password` stored hashed. 409 when the folder already has a rule.',
        auth: 'admin',
        body: fsMetaBodySchema,
        audit: { action: 'fs_meta.create', target: (_c, { body }) => body?.path },
      },
      async (c, { body }) => ok(c, 'fs_meta.created', await rules.create(body), 201),
    ),
  );

  app.get(
    '/fs-meta/:id',
    route({ tag, summary: 'One folder rule', auth: 'admin' }, async (c) =>
      ok(c, 'fs_meta.loaded', await rules.get(c.req.param('id')!)),
    ),
  );

  app.put(
    '/fs-meta/:id',
    route(
      {
        tag,
        summary: 'Changes a folder rule (the fields sent)',
        description:
          '`password`: a new one replaces it (and retires every token for the folder); `""` or null ' +
          'removes it; absent or `********` keeps it.',
        auth: 'admin',
        body: fsMetaBodySchema,
        audit: { action: 'fs_meta.update', target: idParam },
      },
      async (c, { body }) => ok(c, 'fs_meta.updated', await rules.update(c.req.param('id')!, body)),
    ),
  );

  app.delete(
    '/fs-meta/:id',
    route(
      {
        tag,
        summary: 'Deletes a folder rule',
        auth: 'admin',
        audit: { action: 'fs_meta.delete', target: idParam },
      },
      async (c) => {
        await rules.delete(c.req.param('id')!);
        return ok(c, 'fs_meta.deleted', null);
      },
    ),
  );

  app.post(
    '/fs/meta/password/verify',
    route(
      {
        tag,
        summary: "A folder password's token (CloudPaste 1.9): send it as `X-FS-Path-Token` or `?path_token=`",
        description:
          'Answers `{verified, requiresPassword, token, path}`; `path` is the folder the password belongs ' +
          'to. 403 for a wrong password, 429 after too many (as share passwords). The token lasts six ' +
          'hours and dies when the password changes.',
        auth: 'none',
        body: verifyBody,
      },
      async (c, { body }) =>
        ok(
          c,
          'fs_meta.password_verified',
          await rules.verifyPassword(body.path, body.password, c.get('clientIp')),
        ),
    ),
  );

  return app;
}
