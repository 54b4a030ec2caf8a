/**
 * /api/s3-configs (docs/storage.md, "Storage"; docs/compatibility.md §3, with real statuses).
 * Reading: an admin sees every config; an API key with `file` sees those usable by keys
 * (`is_public=1`), without admin-only fields. Everything else is admin only.
 */
import {
  type Principal,
  STORAGE_KIND_NAME,
  storageConfigCreateSchema,
  storageConfigUpdateSchema,
} from '@cubby/shared';
import { Hono } from 'hono';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok, okWith } from '../../http/envelope.ts';
import { notFound } from '../../errors/app-error.ts';
import { translate } from '../../errors/messages.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { idParam, noteAudit, route } from '../../http/route-docs.ts';
import { probeStorage } from '../../vfs/probe.ts';
import type { StorageConfigsService } from './storage-configs.service.ts';

export interface StorageConfigsRoutesOptions {
  config: Pick<Config, 'publicUrl' | 'trustProxyHops'>;
  /**
   * Answers a request to this server's own base URL in-process: the storage test sends the
   * browser's requests to a local config's presigned URLs this way, whatever address the server
   * listens on or sits behind.
   */
  selfFetch: (request: Request) => Promise<Response>;
}

/** The Origin header when it names an http(s) origin ("null" and junk do not). */
function browserOrigin(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const url = new URL(header);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Where the routes answer: `/api/s3-configs` (CloudPaste 0.6) and `/api/storage` (CloudPaste 1.9). */
const STORAGE_CONFIG_BASES = ['/s3-configs', '/storage'] as const;

export function storageConfigsRoutes(service: StorageConfigsService, options: StorageConfigsRoutesOptions) {
  const app = new Hono<AppEnv>();
  const ownOrigin = new URL(service.internalBaseUrl).origin;
  const browserFetch = (request: Request) =>
    new URL(request.url).origin === ownOrigin ? options.selfFetch(request) : fetch(request);

  const tag = 'Storage configurations';

  /** The config when this principal may see it; 404 otherwise (a key never learns private ids). */
  const visible = async (id: string, principal: Principal) => {
    const record = await service.find(id);
    if (!record || (principal.type === 'apikey' && !record.is_public)) throw notFound('storage.not_found');
    return record;
  };

  // CloudPaste 0.6's names, and CloudPaste 1.9's for the same configs.
  for (const base of STORAGE_CONFIG_BASES) {
    app.get(
      base,
      route(
        { tag, summary: 'Lists the storage configs (a key: those usable by keys)', auth: 'file' },
        async (c) => {
          const principal = c.get('principal')!;
          const records = await service.listFor(principal);
          return ok(
            c,
            'storage.listed',
            records.map((record) => service.view(record, principal)),
          );
        },
      ),
    );

    app.get(
      `${base}/:id`,
      route({ tag, summary: 'One storage config', auth: 'file' }, async (c) => {
        const principal = c.get('principal')!;
        return ok(c, 'storage.loaded', service.view(await visible(c.req.param('id')!, principal), principal));
      }),
    );

    app.post(
      base,
      route(
        {
          tag,
          summary: 'Adds a storage config (local folder or S3 bucket)',
          auth: 'admin',
          body: storageConfigCreateSchema,
          audit: { action: 'storage.create' },
        },
        async (c, { body }) => {
          const principal = c.get('principal')!;
          const created = await service.create(body, principal.id);
          noteAudit(c, { target: created.id });
          return ok(c, 'storage.created', service.view(created, principal), 201);
        },
      ),
    );

    app.put(
      `${base}/:id/set-default`,
      route(
        {
          tag,
          summary: 'Makes a storage config the default',
          auth: 'admin',
          audit: { action: 'storage.set_default', target: idParam },
        },
        async (c) => {
          const updated = await service.setDefault(c.req.param('id')!);
          return ok(c, 'storage.default_set', service.view(updated, c.get('principal')!));
        },
      ),
    );

    app.put(
      `${base}/:id`,
      route(
        {
          tag,
          summary: 'Changes a storage config (any subset of its fields)',
          auth: 'admin',
          body: storageConfigUpdateSchema,
          audit: { action: 'storage.update', target: idParam },
          // 404 before the body is judged: an unknown id is the first thing to fix.
          precheck: async (c) => {
            if (!(await service.find(c.req.param('id')!))) throw notFound('storage.not_found');
          },
        },
        async (c, { body }) => {
          const updated = await service.update(c.req.param('id')!, body);
          return ok(c, 'storage.updated', service.view(updated, c.get('principal')!));
        },
      ),
    );

    app.delete(
      `${base}/:id`,
      route(
        {
          tag,
          summary: 'Deletes a storage config (never its files)',
          auth: 'admin',
          audit: { action: 'storage.delete', target: idParam },
        },
        async (c) => {
          await service.delete(c.req.param('id')!);
          return ok(c, 'storage.deleted', null);
        },
      ),
    );

    app.post(
      `${base}/:id/test`,
      route(
        { tag, summary: 'Tests a storage config step by step as uploads and browsers use it', auth: 'admin' },
        async (c) => {
          const config = await visible(c.req.param('id')!, c.get('principal')!);
          const log = c.get('log');
          const report = await probeStorage(config, service, {
            lang: c.get('lang'),
            origin: browserOrigin(c.req.header('origin')) ?? publicOrigin(c, options.config),
            fetch: browserFetch,
            onFailure: (step, error) =>
              log.warn({ configId: config.id, step, error }, 'storage test step failed'),
          });
          await service.touch(config.id);
          if (report.success) await service.pinHostKey(config);
          const kind =
            config.driver === 'local'
              ? translate('storage.kind_local', c.get('lang'))
              : STORAGE_KIND_NAME[config.driver];
          return okWith(c, report.summary, { success: report.success, result: report.result }, {}, 200, {
            steps: report.failed.join(', '),
            kind,
          });
        },
      ),
    );
  }

  return app;
}
