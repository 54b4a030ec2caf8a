/**
 * Where a tus upload goes (docs/api.md, "Resumable uploads (tus)"): each target is named by a key
 * of `Upload-Metadata` and knows who may create it, how its storage multipart upload begins, how
 * the finished upload becomes a file, and how an unfinished one is given up. The protocol
 * (tus.service.ts) only moves bytes into the parts the target began.
 *
 * - `path`: a file in a mount (a folder with `filename`, or a file path), as the fs API's relay
 *   uploads: the caller's rights and confinement, the quota reserved for the whole length, the file
 *   appearing only when complete (modules/uploads/mount-uploads.ts);
 * - `share`: a new file share as the upload page makes it (password, expires_in, max_views,
 *   remark, slug, s3_config_id): a pending file on the share uploads' ledger
 *   (modules/uploads/upload-parts.ts), made ready when complete.
 *
 * - `upload_request`: a file sent through an upload request's link (its token; `access`, the token
 *   its password gave; `batch`, the subfolder of an earlier file of the same upload), with no
 *   account: the request's checks, limits and reserved place (modules/upload-requests), the bytes
 *   written with its creator's rights, as its form route does — or, for a request into a bundle,
 *   a file share of its creator appended to the bundle;
 * - `bundle`: a new file share (as `share`, without share fields of its own: the bundle's password
 *   and expiry govern it) appended to a bundle the caller manages (its slug).
 *
 * A file share bound for a bundle is appended while still pending (BundlesService.appendFile: the
 * bundle's item limit exact, public routes show only ready files) and taken out when abandoned.
 */
import type { Principal } from '@cubby/shared';
import type { TusUploadsTable } from '../../db/schema.ts';
import { conflict, gone } from '../../errors/app-error.ts';
import type { RouteAuth } from '../../http/auth.ts';
import { validate } from '../../http/validate.ts';
import type { MultipartPart } from '../../vfs/objects.ts';
import type { Vfs } from '../../vfs/vfs.ts';
import { fileName, inFolder, type MountUploads } from '../uploads/mount-uploads.ts';
import { formFieldsSchema } from '../uploads/uploads.schemas.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { BundlesService } from '../bundles/bundles.service.ts';
import type { UploadRequestsService, UploadSlot } from '../upload-requests/upload-requests.service.ts';

/** What a tus client asked for at creation. */
export interface TusRequest {
  filename: string;
  length: number;
  /** Upload-Metadata, decoded. */
  metadata: ReadonlyMap<string, string>;
  /** Parts of this size (the last one smaller), as planParts chose for the length. */
  plan: { partSize: number; partCount: number };
}

/** The storage multipart upload a target began, and what it needs again later (stored as JSON). */
export interface TusStarted {
  configId: string;
  storagePath: string;
  uploadId: string;
  state: Record<string, string>;
}

/** Where the finished file is, for the client. */
export interface TusFinished {
  /** The file share made (the `share` target; a `path` upload when uploads publish one). */
  slug?: string | undefined;
  /** The mount path (the `path` target). */
  path?: string | undefined;
}

export interface TusTarget {
  /** The Upload-Metadata key that names this target. */
  readonly kind: string;
  /** Who may create, and then send to, such an upload (http/auth.ts); `none`: the target decides. */
  readonly auth: RouteAuth;
  start(principal: Principal | null, request: TusRequest): Promise<TusStarted>;
  /** Makes the complete upload a file (its `parts`, in order); the caller is checked again. */
  finish(principal: Principal | null, upload: TusUploadsTable, parts: MultipartPart[]): Promise<TusFinished>;
  /** Gives an unfinished upload up: its storage upload and reservations (no caller: the janitor's too). */
  abandon(upload: TusUploadsTable): Promise<void>;
}

const stateOf = (upload: TusUploadsTable) => JSON.parse(upload.target) as Record<string, string>;

/** A file in a mount: `path` names the folder (with `filename`) or the file itself. */
export class MountPathTarget implements TusTarget {
  readonly kind = 'path';
  readonly auth = 'mount' as const;

  constructor(private readonly deps: { vfs: Vfs; uploads: MountUploads }) {}

  async start(principal: Principal | null, request: TusRequest): Promise<TusStarted> {
    const raw = request.metadata.get('path') ?? '';
    const { at, uploadId } = await this.deps.uploads.startRelay(
      principal!,
      await this.fileOf(principal!, raw, request.filename),
      request.length,
    );
    return { configId: at.config.id, storagePath: at.subPath, uploadId, state: { path: at.path } };
  }

  /** A path ending in `/` or naming a folder gets the file name; any other names the file. */
  private async fileOf(principal: Principal, raw: string, filename: string): Promise<string> {
    if (raw.endsWith('/')) return inFolder(raw, fileName(filename));
    const at = await this.deps.vfs.resolveWritable(principal, raw);
    const entry = await this.deps.vfs.find(at).catch(() => null);
    return entry?.isDirectory ? inFolder(at.path, fileName(filename)) : at.path;
  }

  async finish(principal: Principal | null, upload: TusUploadsTable, parts: MultipartPart[]) {
    // Checked again: the caller's rights now, and the path still where the bytes went.
    const at = await this.deps.vfs.resolveWritable(principal!, stateOf(upload).path);
    if (at.config.id !== upload.storage_config_id || at.subPath !== upload.storage_path) {
      throw conflict('tus.target_moved');
    }
    const done = await this.deps.uploads.finish(principal!, at, upload.upload_id, parts);
    return { path: at.path, slug: done.share?.slug };
  }

  abandon(upload: TusUploadsTable): Promise<void> {
    return this.deps.uploads.abandonRelay(upload.storage_config_id, upload.storage_path, upload.upload_id);
  }
}

/** The share fields a `share` upload takes from Upload-Metadata (the upload page's form fields). */
const SHARE_KEYS = ['password', 'expires_in', 'max_views', 'remark', 'slug', 'use_proxy', 's3_config_id'];

/** A new file share, on the share uploads' own pending row and ledger session. */
export class ShareTarget implements TusTarget {
  readonly kind = 'share';
  readonly auth = 'file' as const;

  constructor(
    readonly uploads: UploadsService,
    private readonly bundles: Pick<BundlesService, 'appendFile' | 'removeFile'>,
  ) {}

  async start(principal: Principal | null, request: TusRequest): Promise<TusStarted> {
    const given = SHARE_KEYS.filter((key) => request.metadata.has(key)).map((key) => [
      key,
      request.metadata.get(key),
    ]);
    const fields = validate(formFieldsSchema, Object.fromEntries(given));
    const open = await this.uploads.startShareSession(
      principal!,
      { ...fields, filename: request.filename, size: request.length },
      request.plan,
    );
    return {
      configId: open.config.id,
      storagePath: open.session.storage_path,
      uploadId: open.session.upload_id,
      state: { fileId: open.row.id },
    };
  }

  async finish(principal: Principal | null, upload: TusUploadsTable) {
    const file = await this.uploads.finishShareSession(principal!, stateOf(upload).fileId!, upload.upload_id);
    return { slug: file.slug };
  }

  /**
   * A plain file share of `owner` (no share fields) bound for `bundleId`: its storage upload begun
   * and the pending file appended to the bundle; nothing is kept when that fails.
   */
  async startInBundle(owner: Principal, request: TusRequest, bundleId: string): Promise<TusStarted> {
    const started = await this.start(owner, { ...request, metadata: new Map() });
    const fileId = started.state.fileId!;
    try {
      await this.bundles.appendFile(bundleId, fileId, request.filename);
    } catch (error) {
      await this.uploads.dropShareSession(fileId);
      throw error;
    }
    return started;
  }

  /** Gives up a file share bound for a bundle: its upload, and its place in the bundle. */
  async abandonInBundle(fileId: string, bundleId: string): Promise<void> {
    await this.uploads.dropShareSession(fileId);
    await this.bundles.removeFile(bundleId, fileId);
  }

  abandon(upload: TusUploadsTable): Promise<void> {
    return this.uploads.dropShareSession(stateOf(upload).fileId!);
  }
}

/** A new file share appended to a bundle the caller manages (`bundle`: its slug). */
export class BundleTarget implements TusTarget {
  readonly kind = 'bundle';
  readonly auth = 'file' as const;

  constructor(private readonly deps: { shares: ShareTarget; bundles: Pick<BundlesService, 'ownedOpen'> }) {}

  async start(principal: Principal | null, request: TusRequest): Promise<TusStarted> {
    // 404 someone else's (as the bundles routes answer), 410 revoked or expired.
    const bundle = await this.deps.bundles.ownedOpen(principal!, request.metadata.get('bundle') ?? '');
    const started = await this.deps.shares.startInBundle(principal!, request, bundle.id);
    return { ...started, state: { ...started.state, bundleId: bundle.id } };
  }

  finish(principal: Principal | null, upload: TusUploadsTable) {
    return this.deps.shares.finish(principal, upload);
  }

  abandon(upload: TusUploadsTable): Promise<void> {
    const { fileId, bundleId } = stateOf(upload);
    return this.deps.shares.abandonInBundle(fileId!, bundleId!);
  }
}

/** A file sent through an upload request's link: no account, the link's token in Upload-Metadata. */
export class UploadRequestTarget implements TusTarget {
  readonly kind = 'upload_request';
  readonly auth = 'none' as const;

  constructor(
    private readonly deps: { requests: UploadRequestsService; uploads: MountUploads; shares: ShareTarget },
  ) {}

  async start(_principal: Principal | null, request: TusRequest): Promise<TusStarted> {
    const slot = await this.deps.requests.beginUpload(request.metadata.get('upload_request') ?? '', {
      name: request.filename,
      size: request.length,
      access: request.metadata.get('access'),
      batch: request.metadata.get('batch'),
    });
    try {
      const ids = { requestId: slot.row.id, fileId: slot.fileId };
      if (!slot.at) {
        // Into a bundle: a file share of the request's creator, named as the request named it.
        const bundleId = slot.row.bundle_id!;
        const started = await this.deps.shares.startInBundle(
          slot.owner,
          { ...request, filename: slot.name },
          bundleId,
        );
        return { ...started, state: { ...ids, shareId: started.state.fileId!, bundleId } };
      }
      const { at, uploadId } = await this.deps.uploads.startRelay(slot.owner, slot.at.path, request.length);
      return {
        configId: at.config.id,
        storagePath: at.subPath,
        uploadId,
        state: { requestId: slot.row.id, fileId: slot.fileId },
      };
    } catch (error) {
      await this.deps.requests.dropUpload(slot);
      throw error;
    }
  }

  async finish(_principal: Principal | null, upload: TusUploadsTable, parts: MultipartPart[]) {
    const slot = await this.slot(upload);
    if (!slot) throw gone('upload_requests.unavailable');
    const { shareId } = stateOf(upload);
    if (!slot.at) {
      await this.deps.shares.uploads.finishShareSession(slot.owner, shareId!, upload.upload_id);
      await this.deps.requests.endUpload(slot, upload.upload_length);
      return {};
    }
    if (slot.at.config.id !== upload.storage_config_id || slot.at.subPath !== upload.storage_path) {
      throw conflict('tus.target_moved');
    }
    // Not published as a share: the file belongs to the request's folder, as its form route does.
    await this.deps.uploads.finish(slot.owner, slot.at, upload.upload_id, parts, false);
    await this.deps.requests.endUpload(slot, upload.upload_length);
    // The uploader learns nothing of where the file went.
    return {};
  }

  async abandon(upload: TusUploadsTable): Promise<void> {
    const { shareId, bundleId } = stateOf(upload);
    if (shareId) await this.deps.shares.abandonInBundle(shareId, bundleId!);
    else
      await this.deps.uploads.abandonRelay(upload.storage_config_id, upload.storage_path, upload.upload_id);
    const slot = await this.slot(upload);
    if (slot) await this.deps.requests.dropUpload(slot);
  }

  private slot(upload: TusUploadsTable): Promise<UploadSlot | undefined> {
    const { requestId, fileId } = stateOf(upload);
    return this.deps.requests.slotOf(requestId!, fileId!, upload.upload_length);
  }
}
