/** /api/system/max-upload-size and /api/public/share-policy (anyone), /api/admin/system-settings (admin). */
import { type MaxUploadSize, systemSettingsUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../errors/app-error.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import { type SettingsService, toMegabytes } from './settings.service.ts';

export function settingsRoutes(settings: SettingsService) {
  const app = new Hono<AppEnv>();
  const tag = 'Settings';

  app.get(
    '/system/max-upload-size',
    route(
      {
        tag,
        summary: 'The largest upload (MB, and bytes), and whether uploads into mounts publish file shares',
        auth: 'none',
      },
      async (c) => {
        const [bytes, shares] = await Promise.all([settings.maxUploadBytes(), settings.uploadShares()]);
        return ok(c, 'settings.max_upload_size', {
          max_upload_size: toMegabytes(bytes),
          max_upload_bytes: bytes,
          fs_upload_share: shares.fs,
          webdav_upload_share: shares.webdav,
        } satisfies MaxUploadSize);
      },
    ),
  );

  app.get(
    '/public/share-policy',
    route(
      {
        tag,
        summary:
          'The share policy: default and largest expiry and views, largest share, file types (docs/api.md)',
        auth: 'none',
      },
      async (c) => ok(c, 'share_policy.loaded', await settings.sharePolicy()),
    ),
  );

  app.get(
    '/admin/system-settings',
    route({ tag, summary: 'The system settings', auth: 'admin' }, async (c) =>
      ok(c, 'settings.loaded', await settings.list()),
    ),
  );

  app.put(
    '/admin/system-settings',
    route(
      {
        tag,
        summary: 'Changes system settings',
        auth: 'admin',
        body: systemSettingsUpdateSchema,
        audit: { action: 'settings.update' },
      },
      async (c, { body: input }) => {
        // A unit alone changes nothing.
        const changes = Object.entries(input).filter(([key]) => key !== 'max_upload_size_unit');
        // Which settings changed, not their values.
        noteAudit(c, { details: { keys: changes.map(([key]) => key).join(',') } });
        if (changes.every(([, value]) => value === undefined)) {
          throw badRequest('settings.nothing_to_update');
        }
        await settings.update(input);
        return ok(c, 'settings.updated', await settings.list());
      },
    ),
  );

  return app;
}
