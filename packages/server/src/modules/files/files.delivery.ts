/**
 * GET|HEAD /api/file-view/:slug and /api/file-download/:slug: the bytes of a share.
 *
 * Proxy mode (`use_proxy=1`) streams from the storage driver (vfs/serve-object.ts: Range,
 * validators, conditional requests). Direct mode answers 302 to a presigned URL that lives at most
 * five minutes. Either way the view is counted only by a request that delivers bytes.
 */
import type { Context } from 'hono';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { publicOrigin, rebaseUrl } from '../../http/public-origin.ts';
import { objectCall } from '../../vfs/serve-object.ts';
import { DIRECT_URL_SECONDS, type FilesService } from './files.service.ts';
import { type ServeRoute, servingHeaders } from './files.serving.ts';

type OriginConfig = Pick<Config, 'publicUrl' | 'trustProxyHops'>;

export async function deliverFile(
  c: Context<AppEnv>,
  files: FilesService,
  config: OriginConfig,
  route: ServeRoute,
  credentials: { token?: string | undefined; password?: string | undefined },
): Promise<Response> {
  const access = await files.access(c.req.param('slug') ?? '', {
    token: credentials.token,
    password: credentials.password,
    clientIp: c.get('clientIp'),
  });
  const { row } = access;
  const serve = servingHeaders(row.filename, row.mimetype, route);
  const head = c.req.method === 'HEAD';

  // Undefined when the storage cannot sign URLs (then the bytes are proxied). A protected share
  // always streams from here: a presigned URL would open the file to whoever holds it, password or not.
  const url =
    row.use_proxy || head || row.password_hash !== null
      ? undefined
      : await objectCall(
          () =>
            files.objects.presignGet(row.storage_config_id, row.storage_path, {
              expiresIn: DIRECT_URL_SECONDS,
              filename: row.filename,
              disposition: serve.disposition,
              contentType: serve.contentType,
            }),
          'files.object_missing',
        );
  if (url) {
    await files.countView(access, DIRECT_URL_SECONDS);
    return new Response(null, {
      status: 302,
      headers: { Location: rebaseUrl(url, files.internalBaseUrl, publicOrigin(c, config)) },
    });
  }

  const release = files.beginDelivery(row.id);
  return files.objects.serve(c, row.storage_config_id, {
    path: row.storage_path,
    filename: row.filename,
    serve,
    missing: 'files.object_missing',
    async delivering() {
      const { usedUp } = await files.countView(access);
      return usedUp ? () => files.retire(row.id, 'object') : undefined;
    },
    done: release,
  });
}
