/**
 * /api/admin/fs/* (admin) and /api/user/fs/* (an API key with the mount permission, confined to its
 * base path; an admin may call them too): the same routes and shapes on both trees, CloudPaste's
 * fields (docs/compatibility.md §6) so its client works unchanged. Also the directory cache routes
 * (/api/admin/cache/*, /api/user/cache/clear).
 */
import type { Principal } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { FilesTable } from '../../db/schema.ts';
import type { AppEnv } from '../../http/context.ts';
import { ok, okWith, okWithJsonField } from '../../http/envelope.ts';
import { publicOrigin, rebaseUrl } from '../../http/public-origin.ts';
import { noteAudit, route } from '../../http/route-docs.ts';
import { cachedItemsJson, type Vfs } from '../../vfs/vfs.ts';
import { servingHeaders } from '../files/files.serving.ts';
import { FS_TREES, pathTokens } from './fs-trees.ts';
import type { FsService } from './fs.service.ts';
import { fileUpdateSchema } from '../files/files.routes.ts';
import type { FileUpdate, FilesService } from '../files/files.service.ts';
import { folderShareSettingsSchema } from '../folder-shares/folder-shares.routes.ts';
import type { FolderSharesService } from '../folder-shares/folder-shares.service.ts';

const PATH_MAX = 4096;
const EMPTY_CACHE = { hits: 0, misses: 0, expired: 0, invalidations: 0, pruned: 0, cacheSize: 0, hitRate: 0 };
const text = z.string().max(PATH_MAX).optional();
/** CloudPaste sends `null` for fields it does not know (contentType, fileSize). */
const optionalSize = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish();

const pathQuery = z.object({ path: text });
/** CloudPaste 1.x's Refresh sends `refresh=true`: this answer is read from the storage, not the cache. */
const listQuery = pathQuery.extend({ refresh: z.enum(['true', 'false', '1', '0']).optional() });
const pathBody = z.object({ path: text });
const fileLinkQuery = z.object({
  path: text,
  expires_in: z
    .union([
      z.literal('null'),
      z.literal(''),
      z.coerce
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 3600),
    ])
    .optional(),
  force_download: z.enum(['true', 'false']).optional(),
});
const relayQuery = z.object({
  path: text,
  key: text,
  uploadId: z.string().max(1024).optional(),
  partNumber: z.coerce.number().int().min(1).max(10_000),
  isLastPart: z.enum(['true', 'false']).optional(),
});
const relayRef = z.object({ path: text, key: text, uploadId: z.string().max(1024).optional() });
const multipartInit = z.object({
  path: text,
  filename: text,
  fileName: text,
  contentType: z.string().max(255).nullish(),
  fileSize: optionalSize,
});
const multipartComplete = relayRef.extend({
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().max(256) }))
    .max(10_000)
    .optional(),
  contentType: z.string().max(255).nullish(),
  fileSize: optionalSize,
});
const presignBody = z.object({
  path: text,
  fileName: text,
  contentType: z.string().max(255).nullish(),
  fileSize: optionalSize,
});
const commitBody = z.object({
  uploadId: z.string().max(1024).optional(),
  targetPath: text,
  fileId: text,
  s3Path: text,
  mountId: text,
  s3ConfigId: text,
  etag: z.string().max(256).nullish(),
  fileSize: optionalSize,
  contentType: z.string().max(255).nullish(),
});
/**
 * CloudPaste's share fields of an upload's answer: the share it published, or null for both when
 * none was (the upload-share setting is off); its clients read them only to show a link.
 */
const shareFields = (share: Pick<FilesTable, 'id' | 'slug'> | null) => ({
  fileId: share?.id ?? null,
  slug: share?.slug ?? null,
});

const batchRemoveBody = z.object({ paths: z.array(z.string().max(PATH_MAX)).max(1000).optional() });
const renameBody = z.object({ oldPath: text, newPath: text });
// The 10 MiB rule is checked on the bytes by the service, with the reference's message.
const updateBody = z.object({
  path: text,
  content: z.string().optional(),
  /** The ETag the editor opened; a different one now means someone else changed the file. */
  etag: z.string().max(200).optional(),
});
const shareBody = fileUpdateSchema.extend({ path: text });
const createShareBody = shareBody.extend({ title: folderShareSettingsSchema.shape.title });
const cacheClearBody = z.object({
  mountId: z.string().max(100).optional(),
  s3ConfigId: z.string().max(100).optional(),
});

export function fsRoutes(
  fs: FsService,
  vfs: Vfs,
  options: {
    config: Config;
    internalBaseUrl: string;
    files: FilesService;
    folderShares: FolderSharesService;
  },
) {
  const app = new Hono<AppEnv>();
  const tag = 'File system';
  // With the folder-password tokens the request presented (vfs/folder-rules.ts).
  const principal = (c: Context<AppEnv>): Principal =>
    vfs.folderRules.withTokens(c.get('principal')!, pathTokens(c));
  const clientUrl = (c: Context<AppEnv>, url: URL | null) =>
    url ? rebaseUrl(url, options.internalBaseUrl, publicOrigin(c, options.config)) : null;

  /** A new file share of a mount file (…/fs/share, and …/fs/create-share on a file). */
  const shareFile = async (c: Context<AppEnv>, path: string | undefined, settings: FileUpdate) => {
    const source = await fs.shareSource(principal(c), path);
    const share = await options.files.shareStored(
      principal(c),
      source,
      settings,
      publicOrigin(c, options.config),
    );
    noteAudit(c, { target: share.slug, details: { source: 'mount' } });
    return ok(c, 'fs.shared', share, 201);
  };

  app.post(
    '/fs/create-share',
    route(
      {
        tag,
        summary:
          'Shares a path of a mount: a folder makes a folder share (a read-only link to it), a file a file share as …/fs/share does',
        description:
          'CloudPaste 1.9’s route. Fields as for …/fs/share, and `title` for a folder (`expires_in` ' +
          'hours, `max_views`, `password`, `remark`, `slug`). The caller must be able to read the path ' +
          '(a key: inside its base path). A folder share answers `{id, slug, url, path, …}` (201); ' +
          'see /api/folder-shares to manage it.',
        auth: 'mount',
        body: createShareBody,
        audit: { action: 'share.create', target: (_c, { body }) => body?.path },
      },
      async (c, { body }) => {
        const { path, title, ...settings } = body;
        const { at, entry } = await vfs.stat(principal(c), path);
        if (!entry.isDirectory) return shareFile(c, path, settings);
        const share = await options.folderShares.create(
          principal(c),
          at,
          { ...settings, title },
          publicOrigin(c, options.config),
        );
        noteAudit(c, { target: share.slug, details: { source: 'folder' } });
        return ok(c, 'folder_shares.created', share, 201);
      },
    ),
  );

  for (const { prefix, doc, auth } of FS_TREES) {
    // On the key tree a signed-out visitor is the guest while guests may browse (its reach decides).
    const guests = auth === 'mount';
    app.get(
      `${prefix}/list`,
      route(
        {
          guests,
          ...doc(
            'Lists a folder: every entry, folders first; above the mounts the way on as virtual folders',
            'Entries carry `name, path, isDirectory, isVirtual, size, modified` and `etag` for files. ' +
              "Listings are cached per mount for the mount's cache time; writes invalidate them. " +
              '`refresh=true` reads the folder from the storage (changes made behind the server’s back) ' +
              'and caches that.',
          ),
          query: listQuery,
        },
        async (c, { query }) => {
          const refresh = query.refresh === 'true' || query.refresh === '1';
          const listing = await fs.list(principal(c), query.path, refresh);
          const itemsJson = cachedItemsJson(listing);
          if (!itemsJson) return ok(c, 'fs.listed', listing);
          const { items: _items, ...rest } = listing;
          return okWithJsonField(c, 'fs.listed', rest, 'items', itemsJson);
        },
      ),
    );

    app.get(
      `${prefix}/get`,
      route(
        {
          guests,
          ...doc('What is at a path (file or folder), with `preview_url` and `download_url` for a file'),
          query: pathQuery,
        },
        async (c, { query }) => {
          const { info, urls } = await fs.get(principal(c), query.path);
          return ok(c, 'fs.got', {
            ...info,
            ...(info.isDirectory
              ? {}
              : { preview_url: clientUrl(c, urls.preview), download_url: clientUrl(c, urls.download) }),
          });
        },
      ),
    );

    app.get(
      `${prefix}/download`,
      route(
        {
          guests,
          ...doc('Downloads a file through the server (Range, ETag, conditional requests; an attachment)'),
          query: pathQuery,
          produces: 'bytes',
        },
        async (c, { query }) => {
          const { at, entry } = await fs.downloadTarget(principal(c), query.path);
          return vfs.serve(c, at, {
            filename: entry.name,
            serve: servingHeaders(entry.name, entry.contentType ?? '', 'download'),
            missing: 'fs.not_found',
          });
        },
      ),
    );

    app.post(
      `${prefix}/mkdir`,
      route(
        { guests, ...doc('Creates a folder (and missing parents); 409 when it exists'), body: pathBody },
        async (c, { body }) => {
          await fs.mkdir(principal(c), body.path);
          return ok(c, 'fs.dir_created', null);
        },
      ),
    );

    app.post(
      `${prefix}/upload`,
      route(
        {
          guests,
          ...doc(
            'Uploads a file into the folder `path` (multipart form: `file`, `path`; streamed, the upload limit applies)',
            'Publishes a file share of the upload when the `fs_upload_share` setting is on (the default); ' +
              'else `fileId` and `slug` are null. With `use_multipart=true` the bytes are not kept and a ' +
              'relay upload is started instead (CloudPaste).',
          ),
          upload: 'multipart',
        },
        async (c) => {
          const length = c.req.header('Content-Length');
          const result = await fs.uploads.formUpload(principal(c), {
            body: c.req.raw.body,
            contentType: c.req.header('Content-Type') ?? '',
            ...(length && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
          });
          if (result.multipart) {
            return ok(c, 'fs.use_multipart', {
              useMultipart: true,
              ...result.multipart,
              message: c.get('lang') === 'en' ? 'Use the multipart API' : '请使用分片上传API上传此文件',
            });
          }
          const { at, name, size, mimetype, etag, share } = result.stored!;
          return ok(c, 'fs.uploaded', {
            useMultipart: false,
            success: true,
            path: at.path,
            name,
            size,
            mimetype,
            etag,
            ...shareFields(share),
          });
        },
      ),
    );

    app.post(
      `${prefix}/multipart/init`,
      route(
        {
          ...doc('Starts a relay upload of `filename` into the folder `path`; answers `uploadId` and `key`'),
          body: multipartInit,
        },
        async (c, { body }) =>
          ok(
            c,
            'common.ok',
            await fs.uploads.initMultipart(principal(c), {
              ...(body.path !== undefined ? { path: body.path } : {}),
              ...((body.filename ?? body.fileName) !== undefined
                ? { filename: (body.filename ?? body.fileName)! }
                : {}),
              ...(body.fileSize != null ? { fileSize: body.fileSize } : {}),
            }),
          ),
      ),
    );

    app.post(
      `${prefix}/multipart/part`,
      route(
        {
          ...doc(
            'Uploads one part (the raw body, Content-Length required; 5 MiB parts but the last)',
            'Query: `key` and `uploadId` from init, `partNumber` 1–10000. Answers `{partNumber, etag}`.',
          ),
          query: relayQuery,
          upload: 'binary',
        },
        async (c, { query }) => {
          const length = c.req.header('Content-Length');
          return ok(
            c,
            'common.ok',
            await fs.uploads.uploadPart(
              principal(c),
              { ...relayInput(query), partNumber: query.partNumber },
              c.req.raw.body,
              length && /^\d+$/.test(length) ? Number(length) : undefined,
            ),
          );
        },
      ),
    );

    app.get(
      `${prefix}/multipart/parts`,
      route(
        { ...doc('The parts the storage holds for a relay upload (to resume it)'), query: relayRef },
        async (c, { query }) =>
          ok(c, 'fs.parts_listed', await fs.uploads.listParts(principal(c), relayInput(query))),
      ),
    );

    app.post(
      `${prefix}/multipart/complete`,
      route(
        {
          ...doc(
            'Completes a relay upload: parts checked against the storage, size against the upload limit; publishes a file share when `fs_upload_share` is on',
          ),
          body: multipartComplete,
        },
        async (c, { body }) => {
          const { at, etag, size, share } = await fs.uploads.completeMultipart(principal(c), {
            ...relayInput(body),
            ...(body.parts ? { parts: body.parts } : {}),
          });
          return ok(c, 'fs.uploaded', { success: true, path: at.path, etag, size, ...shareFields(share) });
        },
      ),
    );

    app.post(
      `${prefix}/multipart/abort`,
      route(
        { ...doc('Aborts a relay upload; its parts are dropped'), body: relayRef },
        async (c, { body }) => {
          await fs.uploads.abortMultipart(principal(c), relayInput(body));
          return ok(c, 'fs.multipart_aborted', { success: true });
        },
      ),
    );

    app.post(
      `${prefix}/presign`,
      route(
        {
          ...doc(
            'A URL the browser PUTs the file to (the bucket, or this server for local disk); single-use',
            'Send `fileSize`: the PUT must carry exactly that many bytes. Then call presign/commit with ' +
              'the answer spread back in.',
          ),
          body: presignBody,
        },
        async (c, { body }) => {
          const p = await fs.uploads.presign(principal(c), {
            ...(body.path !== undefined ? { path: body.path } : {}),
            ...(body.fileName !== undefined ? { fileName: body.fileName } : {}),
            ...(body.fileSize != null ? { fileSize: body.fileSize } : {}),
          });
          return ok(c, 'fs.presigned', {
            presignedUrl: clientUrl(c, p.url),
            uploadId: p.uploadId,
            fileId: p.uploadId,
            s3Path: p.at.subPath,
            s3Url: null,
            mountId: p.at.mount.id,
            s3ConfigId: p.at.config.id,
            targetPath: p.at.path,
            contentType: p.contentType,
            expiresIn: p.expiresIn,
            upload_headers: { 'Content-Type': p.contentType },
          });
        },
      ),
    );

    app.post(
      `${prefix}/presign/commit`,
      route(
        {
          ...doc(
            'Completes a presigned upload from what the storage received (nothing the client sends back is trusted); publishes a file share when `fs_upload_share` is on',
          ),
          body: commitBody,
        },
        async (c, { body }) => {
          const { at, name, size, mimetype, share } = await fs.uploads.commitPresigned(principal(c), {
            ...(body.targetPath !== undefined ? { targetPath: body.targetPath } : {}),
            ...((body.uploadId ?? body.fileId) !== undefined
              ? { uploadId: (body.uploadId ?? body.fileId)! }
              : {}),
          });
          return ok(c, 'fs.uploaded', { ...shareFields(share), path: at.path, name, size, type: mimetype });
        },
      ),
    );

    app.delete(
      `${prefix}/remove`,
      route(
        {
          guests,
          ...doc('Removes a file, or a folder with everything in it, and their file shares'),
          query: pathQuery,
        },
        async (c, { query }) => {
          await fs.remove(principal(c), query.path);
          c.header('Cache-Control', 'no-cache, no-store, must-revalidate');
          return ok(c, 'fs.removed', null);
        },
      ),
    );

    app.post(
      `${prefix}/batch-remove`,
      route(
        {
          guests,
          ...doc(
            'Removes several paths (a key: every path must be inside its base path, or nothing happens)',
          ),
          body: batchRemoveBody,
          audit: { action: 'fs.bulk_delete', target: (_c, { body }) => body?.paths?.join(',') },
        },
        async (c, { body }) => {
          const result = await fs.batchRemove(principal(c), body.paths);
          noteAudit(c, { details: { removed: result.success, failed: result.failed.length } });
          return okWith(c, 'fs.batch_removed', result, {}, 200, {
            success: result.success,
            failed: result.failed.length,
          });
        },
      ),
    );

    app.post(
      `${prefix}/rename`,
      route(
        {
          guests,
          ...doc('Renames or moves a file or folder within its mount; its file shares follow'),
          body: renameBody,
        },
        async (c, { body }) => {
          await fs.rename(principal(c), body.oldPath, body.newPath);
          return ok(c, 'fs.renamed', null);
        },
      ),
    );

    app.post(
      `${prefix}/update`,
      route(
        {
          guests,
          ...doc(
            'Writes text (at most 10 MiB) to a file, creating it when missing',
            'With `etag` (the one the file had when it was opened), a file that has changed since, ' +
              'or was deleted, is not overwritten: 412.',
          ),
          body: updateBody,
        },
        async (c, { body }) => {
          const result = await fs.update(principal(c), body.path, body.content, body.etag);
          return ok(c, result.isNewFile ? 'fs.created_file' : 'fs.updated_file', result);
        },
      ),
    );

    app.post(
      `${prefix}/share`,
      route(
        {
          ...doc(
            'Shares a file of a mount: a new file share with its own link, password, expiry and view limit',
            'Fields as for updating a file share (`slug`, `password`, `expires_in` hours or `expires_at`, ' +
              '`max_views`, `remark`, `use_proxy`). The file stays in the mount when the share expires, ' +
              'is used up or is deleted. Answers the share as `GET …/files/:id` does.',
          ),
          body: shareBody,
          audit: { action: 'share.create', target: (_c, { body }) => body?.path },
        },
        async (c, { body }) => {
          const { path, ...settings } = body;
          return shareFile(c, path, settings);
        },
      ),
    );

    app.get(
      `${prefix}/file-link`,
      route(
        {
          guests,
          ...doc(
            'A direct link to a file (presigned on S3, signed by this server for local disk)',
            '`expires_in` seconds (default: the storage config’s signature time, at most 7 days); ' +
              '`force_download=true` makes it an attachment.',
          ),
          query: fileLinkQuery,
        },
        async (c, { query }) => {
          const expires = typeof query.expires_in === 'number' ? query.expires_in : undefined;
          const link = await fs.fileLink(principal(c), {
            path: query.path,
            expires_in: expires,
            force_download: query.force_download === 'true',
          });
          return ok(c, 'fs.link_ready', { ...link.answer, presignedUrl: clientUrl(c, link.url) });
        },
      ),
    );
  }

  app.get(
    '/admin/cache/stats',
    route({ tag, summary: 'Directory cache statistics and process memory (admin)', auth: 'admin' }, (c) => {
      const memory = process.memoryUsage();
      const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;
      return ok(c, 'fs.cache_stats', {
        // CloudPaste also reports a cache of presigned URLs; we sign each link when asked, so that
        // cache is always empty here.
        cache: { directory: vfs.cacheStats(), s3Url: EMPTY_CACHE, mounts: vfs.mountCacheStats() },
        system: {
          memory: {
            rss: mb(memory.rss),
            heapTotal: mb(memory.heapTotal),
            heapUsed: mb(memory.heapUsed),
            external: mb(memory.external),
            arrayBuffers: mb(memory.arrayBuffers),
            heapUsagePercent: Math.round((memory.heapUsed / memory.heapTotal) * 10000) / 100,
          },
          uptime: Math.round(process.uptime()),
        },
        timestamp: new Date().toISOString(),
      });
    }),
  );

  app.post(
    '/admin/cache/clear',
    route(
      {
        tag,
        summary:
          'Clears the directory cache: of one mount (`mountId`), of the mounts on one storage config (`s3ConfigId`), or all (admin)',
        auth: 'admin',
        body: cacheClearBody,
      },
      async (c, { body }) => {
        const scope = body.mountId
          ? { mountId: body.mountId }
          : body.s3ConfigId
            ? { storageConfigId: body.s3ConfigId }
            : {};
        const count = await vfs.clearCache(scope);
        return okWith(
          c,
          'fs.cache_cleared',
          { clearedCount: count, timestamp: new Date().toISOString() },
          {},
          200,
          {
            count,
          },
        );
      },
    ),
  );

  app.post(
    '/user/cache/clear',
    route(
      {
        tag,
        summary: 'Clears the directory cache of the mounts a key may reach (API key, mount permission)',
        auth: 'mount',
      },
      async (c) => {
        let count = 0;
        for (const mount of await vfs.visibleMounts(principal(c)))
          count += await vfs.clearCache({ mountId: mount.id });
        return okWith(
          c,
          'fs.cache_cleared',
          { clearedCount: count, timestamp: new Date().toISOString() },
          {},
          200,
          {
            count,
          },
        );
      },
    ),
  );

  return app;
}

/** The relay fields the service reads (absent ones left out). */
function relayInput(input: { key?: string | undefined; uploadId?: string | undefined }) {
  return {
    ...(input.key !== undefined ? { key: input.key } : {}),
    ...(input.uploadId !== undefined ? { uploadId: input.uploadId } : {}),
  };
}
