/** /api/system/max-upload-size (anyone) and /api/admin/system-settings (admin). */
import { type MaxUploadSize, systemSettingsUpdateSchema } from '@cubby/shared';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { route } from '../../http/route-docs.ts';
import { type SettingsService, toMegabytes } from './settings.service.ts';

export function settingsRoutes(settings: SettingsService) {
  const app = new Hono<AppEnv>();
  const tag = 'Settings';

  app.get(
    '/system/max-upload-size',
    route({ tag, summary: 'The largest upload (MB, and bytes)', auth: 'none' }, async (c) => {
      const bytes = await settings.maxUploadBytes();
      return ok(c, 'settings.max_upload_size', {
        max_upload_size: toMegabytes(bytes),
        max_upload_bytes: bytes,
      } satisfies MaxUploadSize);
    }),
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
      { tag, summary: 'Changes system settings', auth: 'admin', body: systemSettingsUpdateSchema },
      async (c, { body: input }) => {
        if (
          input.max_upload_size === undefined &&
          input.webdav_upload_mode === undefined &&
          input.url_allowlist === undefined &&
          input.office_preview_enabled === undefined
        ) {
          throw badRequest('settings.nothing_to_update');
        }
        await settings.update(input);
        return ok(c, 'settings.updated', await settings.list());
      },
    ),
  );

  return app;
}
