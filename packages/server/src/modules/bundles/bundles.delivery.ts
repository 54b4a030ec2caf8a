/**
 * The bytes of a bundle: one item (GET|HEAD /api/public/bundles/:slug/items/:n[/download]) and the
 * zip of all (…/zip). Files are served by the one serving path of shares (vfs/serve-object.ts:
 * Range, validators; files.serving.ts: the safe types and dispositions); a paste's text is small and
 * sent from the database under the same headers. A request without a visit token counts the visit
 * when its bytes start to go (never on HEAD, 304 or 416).
 */
import type { Context } from 'hono';
import type { Clock } from '../../lib/clock.ts';
import type { AppEnv } from '../../http/context.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import type { Vfs } from '../../vfs/vfs.ts';
import { type ServeRoute, servingHeaders } from '../files/files.serving.ts';
import type { FilesService } from '../files/files.service.ts';
import { type ZipEntry, zipArchive } from '../fs/zip-archive.ts';
import type { BundlesService, LiveItem } from './bundles.service.ts';

export interface DeliveryDeps {
  bundles: BundlesService;
  files: FilesService;
  vfs: Vfs;
  clock: Clock;
}

export interface Credentials {
  token?: string | undefined;
  password?: string | undefined;
}

export async function deliverItem(
  c: Context<AppEnv>,
  deps: DeliveryDeps,
  position: number,
  route: ServeRoute,
  credentials: Credentials,
): Promise<Response> {
  const { bundles, files, vfs } = deps;
  const access = await bundles.access(c.req.param('slug') ?? '', {
    ...credentials,
    clientIp: c.get('clientIp'),
  });
  const item = await bundles.liveItem(access.row, position);
  const delivering = access.counted
    ? undefined
    : async () => {
        await bundles.countVisit(access.row);
        return undefined;
      };
  if (item.kind === 'file') {
    const { row } = item;
    return files.objects.serve(c, row.storage_config_id, {
      path: row.storage_path,
      filename: item.name,
      serve: servingHeaders(item.name, row.mimetype, route),
      missing: 'files.object_missing',
      delivering,
      // Keeps the share's object while its bytes go (files.service.ts "Retiring").
      done: files.beginDelivery(row.id),
    });
  }
  if (item.kind === 'mount') {
    return vfs.serve(c, item.at, {
      filename: item.name,
      serve: servingHeaders(item.name, item.type, route),
      missing: 'fs.not_found',
      delivering,
    });
  }
  const head = c.req.method === 'HEAD';
  const text = await bundles.pasteText(item.row.id);
  if (!head) await delivering?.();
  const serve = servingHeaders(item.name, item.type, route);
  const headers = new Headers({
    'Content-Type': serve.contentType,
    'Content-Disposition': contentDisposition(serve.disposition, item.name),
    'Content-Length': String(Buffer.byteLength(text, 'utf8')),
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (serve.sandbox) headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
  return new Response(head ? null : text, { status: 200, headers });
}

/**
 * The zip of every item that can be read now, streamed (fs/zip-archive.ts: one item open at a time,
 * read as the client takes it, exact Content-Length). The visit is counted before the first byte.
 */
export async function deliverZip(
  c: Context<AppEnv>,
  deps: DeliveryDeps,
  credentials: Credentials,
): Promise<Response> {
  const { bundles } = deps;
  const access = await bundles.access(c.req.param('slug') ?? '', {
    ...credentials,
    clientIp: c.get('clientIp'),
  });
  const items = await bundles.liveItems(access.row);
  const head = c.req.method === 'HEAD';
  if (!access.counted && !head) await bundles.countVisit(access.row);
  const archive = zipArchive(
    items.map((item) => zipEntry(deps, item)),
    {
      now: deps.clock.now(),
      onFailure: (error) => c.get('log').warn({ err: error }, 'bundle zip cut off'),
    },
  );
  if (head) await archive.body.cancel();
  const filename = `${(access.row.title ?? '').replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || access.row.slug}.zip`;
  return new Response(head ? null : archive.body, {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition('attachment', filename),
      'Content-Length': String(archive.size),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

function zipEntry(deps: DeliveryDeps, item: LiveItem): ZipEntry {
  return {
    kind: 'file',
    name: item.name,
    size: item.size,
    modified: item.kind === 'mount' ? null : new Date(item.row.updated_at),
    open: async () => {
      if (item.kind === 'file') {
        const read = await deps.files.objects.read(item.row.storage_config_id, item.row.storage_path);
        return { body: read.body, size: read.size };
      }
      if (item.kind === 'mount') {
        const read = await deps.vfs.read(item.at);
        return { body: read.body, size: read.size };
      }
      const bytes = Buffer.from(await deps.bundles.pasteText(item.row.id), 'utf8');
      return { body: new Blob([bytes]).stream(), size: bytes.length };
    },
  };
}
