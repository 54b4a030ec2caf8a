/**
 * The file-system API behind /api/{admin|user}/fs/* (docs/compatibility.md §6, without CloudPaste's
 * weaknesses: §10): every path goes through the vfs, which normalises it and checks a key's base path before
 * any storage call; nothing the client sends back (a storage key, mount id, size or ETag) is trusted —
 * targets are recomputed from checked virtual paths, parts and sizes are read from the storage.
 * Uploads into the mounts are modules/uploads/mount-uploads.ts (`FsService.uploads`); removing,
 * renaming or rewriting files keeps share records in step (share-upkeep).
 */
import {
  bareEtag,
  sameDigest,
  FS_TEXT_EDIT_MAX_BYTES,
  type FsInfoAnswer,
  mimeFromFilename,
  type Principal,
} from '@cubby/shared';
import { AppError, badRequest, conflict, forbidden, preconditionFailed } from '../../errors/app-error.ts';
import { type Entry, type FsListing, type MountedPath, storageType } from '../../vfs/vfs.ts';
import { servingHeaders } from '../files/files.serving.ts';
import { MountUploads, type MountUploadsDeps } from '../uploads/mount-uploads.ts';

/** What the fs API works with: the same as its uploads into the mounts. */
export type FsDeps = MountUploadsDeps;

/** What `get` says about a path, before the links are added. */
export type FsEntryInfo = Omit<FsInfoAnswer, 'preview_url' | 'download_url'>;

/** A URL a browser opens: the caller rebases the storage's own URL onto the public origin. */
export interface LinkUrls {
  preview: URL | null;
  download: URL | null;
}

const bare = (etag: string | undefined) => (etag === undefined ? undefined : bareEtag(etag));

export class FsService {
  /** Uploads into the mounts (modules/uploads/mount-uploads.ts). */
  readonly uploads: MountUploads;

  constructor(private readonly deps: FsDeps) {
    this.uploads = new MountUploads(deps);
  }

  private get vfs() {
    return this.deps.vfs;
  }

  /** A folder's listing; `refresh` reads it from the storage instead of the cache (and caches that). */
  list(principal: Principal, path: string | undefined, refresh = false): Promise<FsListing> {
    return this.vfs.list(principal, path ?? '/', { cache: refresh ? 'refresh' : 'use' });
  }

  /** What is at a path (file or folder), with URLs to view and download a file. */
  async get(principal: Principal, raw: string | undefined): Promise<{ info: FsEntryInfo; urls: LinkUrls }> {
    const { at, entry } = await this.vfs.stat(principal, raw);
    const info = this.info(at, entry);
    if (entry.isDirectory) return { info, urls: { preview: null, download: null } };
    const expiresIn = at.config.signature_expires_in;
    const view = servingHeaders(entry.name, info.contentType, 'view');
    // As the mount's link policy says (docs/storage.md, "Download links"), on every kind of storage.
    const [preview, download] = await Promise.all([
      this.vfs.downloadUrl(at, {
        expiresIn,
        filename: entry.name,
        disposition: view.disposition,
        contentType: view.contentType,
      }),
      this.vfs.downloadUrl(at, {
        expiresIn,
        filename: entry.name,
        disposition: 'attachment',
        contentType: servingHeaders(entry.name, info.contentType, 'download').contentType,
      }),
    ]);
    return { info, urls: { preview, download } };
  }

  private info(at: MountedPath, entry: Entry): FsEntryInfo {
    const info: FsEntryInfo = {
      path: entry.isDirectory && at.path !== '/' ? `${at.path}/` : at.path,
      name: entry.name || at.path.split('/').pop() || '',
      isDirectory: entry.isDirectory,
      size: entry.isDirectory ? 0 : entry.size,
      modified: entry.modified ? entry.modified.toISOString() : null,
      contentType: entry.isDirectory ? 'application/x-directory' : mimeFromFilename(entry.name),
      mount_id: at.mount.id,
      storage_type: storageType(at.config),
    };
    const etag = bare(entry.etag);
    if (etag && !entry.isDirectory) info.etag = etag;
    return info;
  }

  /** The file to stream for a download (the route serves it with Range and validators). */
  async downloadTarget(principal: Principal, raw: string | undefined) {
    const { at, entry } = await this.vfs.stat(principal, raw);
    if (entry.isDirectory) throw badRequest('fs.is_a_directory');
    return { at, entry };
  }

  async mkdir(principal: Principal, raw: string | undefined): Promise<void> {
    if (!raw) throw badRequest('fs.dir_path_required');
    try {
      await this.vfs.mkdir(principal, raw);
    } catch (error) {
      if (error instanceof AppError && error.messageKey === 'fs.already_exists') {
        throw conflict('fs.dir_exists');
      }
      throw error;
    }
  }

  // ---- changing -------------------------------------------------------------------------------

  /** Removes a file or a folder with everything in it (their shares go too: share-upkeep.ts). */
  async remove(principal: Principal, raw: string | undefined): Promise<void> {
    if (!raw) throw badRequest('fs.path_required');
    await this.vfs.remove(principal, raw);
  }

  /** Removes several paths; every one is checked first (all or nothing), then each is tried. */
  async batchRemove(principal: Principal, paths: string[] | undefined) {
    if (!paths || paths.length === 0) throw badRequest('fs.paths_required');
    for (const raw of paths) {
      const { path: p } = this.vfs.target(raw);
      if (!this.vfs.allowed(principal, p, 'write')) {
        throw forbidden('fs.remove_forbidden', { path: raw });
      }
    }
    let success = 0;
    const failed: Array<{ path: string; error: string }> = [];
    for (const raw of paths) {
      try {
        await this.remove(principal, raw);
        success++;
      } catch (error) {
        failed.push({ path: raw, error: error instanceof AppError ? error.messageKey : String(error) });
      }
    }
    return { success, failed };
  }

  /** Renames a file or folder within its mount; its shares follow it (share-upkeep.ts). */
  async rename(
    principal: Principal,
    oldPath: string | undefined,
    newPath: string | undefined,
  ): Promise<void> {
    if (!oldPath || !newPath) throw badRequest('fs.rename_params');
    if (oldPath.endsWith('/') !== newPath.endsWith('/')) throw badRequest('fs.rename_kind_mismatch');
    await this.vfs.rename(principal, oldPath, newPath);
  }

  /** Writes text to a file, creating it when missing. */
  async update(
    principal: Principal,
    raw: string | undefined,
    content: string | undefined,
    expectedEtag?: string,
  ) {
    if (!raw || content === undefined) throw badRequest('fs.update_params');
    if (raw.endsWith('/')) throw badRequest('fs.update_directory');
    const bytes = Buffer.byteLength(content);
    if (bytes > FS_TEXT_EDIT_MAX_BYTES) throw badRequest('fs.update_too_large');
    const at = await this.vfs.resolveWritable(principal, raw);
    const current = await this.vfs.find(at);
    if (current?.isDirectory) throw badRequest('fs.update_directory');
    const existed = current !== null;
    if (expectedEtag !== undefined && !sameDigest(current?.etag, expectedEtag)) {
      throw preconditionFailed('fs.update_conflict');
    }
    const contentType = mimeFromFilename(at.path);
    const { result } = await this.vfs.write(principal, at.path, new Blob([content]).stream(), {
      size: bytes,
      contentType,
    });
    return { path: at.path, etag: bare(result.etag) ?? null, contentType, isNewFile: !existed };
  }

  /** A direct link to a file: presigned on S3, signed by this server for local disk. */
  /** The file at `raw` as the source of a new share (the explorer's "Share…"); a folder has none. */
  async shareSource(principal: Principal, raw: string | undefined) {
    if (!raw) throw badRequest('fs.path_required');
    if (raw.endsWith('/')) throw badRequest('fs.share_directory');
    const { at, entry } = await this.vfs.stat(principal, raw);
    if (entry.isDirectory) throw badRequest('fs.share_directory');
    return {
      filename: entry.name,
      storage_config_id: at.config.id,
      storage_path: at.subPath,
      size: entry.size,
      etag: entry.etag ?? null,
      // A share of it leaves as its mount's downloads do (docs/storage.md, "Download links").
      use_proxy: at.mount.link_policy === 'proxy' ? 1 : 0,
    };
  }

  async fileLink(
    principal: Principal,
    input: { path?: string | undefined; expires_in?: number | undefined; force_download?: boolean },
  ) {
    if (!input.path) throw badRequest('fs.path_required');
    if (input.path.endsWith('/')) throw badRequest('fs.link_directory');
    const { at, entry } = await this.vfs.stat(principal, input.path);
    if (entry.isDirectory) throw badRequest('fs.link_directory');
    const expiresIn = input.expires_in ?? at.config.signature_expires_in;
    const serve = servingHeaders(
      entry.name,
      mimeFromFilename(entry.name),
      input.force_download ? 'download' : 'view',
    );
    const url = await this.vfs.downloadUrl(at, {
      expiresIn,
      filename: entry.name,
      disposition: input.force_download ? 'attachment' : serve.disposition,
      contentType: serve.contentType,
    });
    const expiresAt = new Date(this.deps.clock.now().getTime() + expiresIn * 1000).toISOString();
    return {
      at,
      url,
      answer: {
        path: at.path,
        name: entry.name,
        expiresIn,
        expiresAt,
        forceDownload: input.force_download === true,
        mount_id: at.mount.id,
        storage_type: storageType(at.config),
      },
    };
  }
}
