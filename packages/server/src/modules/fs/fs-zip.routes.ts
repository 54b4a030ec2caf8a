/**
 * Zip downloads (fs-zip.ts) on both fs trees, and the link route a browser opens:
 *   GET  /api/{admin|user}/fs/download-zip?path=…  (or paths=…&paths=…)  the archive, for API clients
 *   POST /api/{admin|user}/fs/zip-link {paths}     → {url, expires_at, expires_in}
 *   GET  /api/fs/zip?token=…                       the archive, without credentials (the link is one)
 */
import type { Principal } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { route } from '../../http/route-docs.ts';
import type { Clock } from '../../lib/clock.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { FS_TREES, pathTokens } from './fs-trees.ts';
import { type FsZipService, ZIP_MAX_PATHS, type ZipPlan } from './fs-zip.ts';
import { zipArchive } from './zip-archive.ts';

/** Where the link route is mounted (under /api). */
export const ZIP_LINK_ROUTE = '/fs/zip';

const PATH_MAX = 4096;
const onePath = z.string().max(PATH_MAX);
const zipQuery = z.object({
  path: onePath.optional(),
  /** Repeated: `paths=/a/x&paths=/a/y`. */
  paths: z.union([onePath, z.array(onePath).max(ZIP_MAX_PATHS)]).optional(),
});
const zipLinkBody = z.object({
  paths: z.array(onePath).max(ZIP_MAX_PATHS).optional(),
  path: onePath.optional(),
});
const linkQuery = z.object({ token: z.string().max(8192).optional() });

/** The paths a request names: `path` and every `paths`. */
const requested = (path: string | undefined, paths: readonly string[] | undefined): string[] => [
  ...(path !== undefined ? [path] : []),
  ...(paths ?? []),
];

/** The archive a plan describes, streamed as a download (folder shares answer their zips so too). */
export function zipResponse(c: Context<AppEnv>, plan: ZipPlan, now: Date): Response {
  const archive = zipArchive(plan.entries, {
    now,
    onFailure: (error) => c.get('log').warn({ err: error }, 'zip download cut off'),
  });
  return new Response(archive.body, {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition('attachment', plan.filename),
      'Content-Length': String(archive.size),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export function fsZipRoutes(zips: FsZipService, options: { config: Config; clock: Clock }) {
  const app = new Hono<AppEnv>();
  // With the folder-password tokens the request presented (vfs/folder-rules.ts).
  const principal = (c: Context<AppEnv>): Principal => zips.withTokens(c.get('principal')!, pathTokens(c));

  /** Plans the archive (every 4xx comes here, before a byte is sent), then streams it. */
  const answerZip = async (c: Context<AppEnv>, who: Principal, raws: string[]): Promise<Response> =>
    zipResponse(c, await zips.plan(who, raws, c.req.raw.signal), options.clock.now());

  for (const { prefix, doc, auth } of FS_TREES) {
    // On the key tree a signed-out visitor is the guest while guests may browse (its reach decides).
    const guests = auth === 'mount';
    app.get(
      `${prefix}/download-zip`,
      route(
        {
          guests,
          ...doc(
            'Downloads a folder, or several files and folders of one folder (`paths` repeated), as a zip streamed by the server',
            'Entries are named relative to the folder (the folder of a selection); folders are entries of ' +
              'their own, so empty ones survive; files are stored uncompressed, so `Content-Length` is ' +
              'exact. Everything is listed before the first byte: more entries than the limit ' +
              '(ZIP_MAX_ENTRIES) is a 400. A storage failure midway aborts the connection.',
          ),
          query: zipQuery,
          produces: 'bytes',
        },
        (c, { query }) => answerZip(c, principal(c), requested(query.path, c.req.queries('paths'))),
      ),
    );

    app.post(
      `${prefix}/zip-link`,
      route(
        {
          guests,
          ...doc(
            'A short-lived link that downloads the zip of `paths` without credentials (for a browser)',
            'Answers `{url, expires_at, expires_in}`; open `url` with a plain GET (navigate to it). ' +
              'The link works for ZIP_LINK_SECONDS (default 300); a download started in time runs to ' +
              'its end. It speaks for the caller: a key is checked again when the link is used.',
          ),
          body: zipLinkBody,
        },
        async (c, { body }) => {
          const link = await zips.createLink(principal(c), requested(body.path, body.paths));
          const url = `${publicOrigin(c, options.config)}/api${ZIP_LINK_ROUTE}?token=${link.token}`;
          return ok(c, 'fs.zip_link_ready', {
            url,
            expires_at: link.expiresAt.toISOString(),
            expires_in: options.config.zip.linkSeconds,
          });
        },
      ),
    );
  }

  app.get(
    ZIP_LINK_ROUTE,
    route(
      {
        tag: 'File system',
        summary: 'Downloads the zip a link from …/fs/zip-link names (no credentials: the signed link is one)',
        auth: 'none',
        query: linkQuery,
        produces: 'bytes',
      },
      async (c, { query }) => {
        const { principal: who, paths } = await zips.openLink(query.token);
        return answerZip(c, who, paths);
      },
    ),
  );

  return app;
}
