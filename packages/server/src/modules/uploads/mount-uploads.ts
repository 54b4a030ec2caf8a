/**
 * Uploads into a mount (docs/architecture.md, "Uploads"): the fs API's form upload, its server
 * relay (multipart through this server) and presigned uploads, and WebDAV's PUT, beside the share
 * uploads of this folder. Every byte goes through the vfs (its confinement, locks, quota and change
 * events); the multipart and presigned steps use the same stored-object operations as share uploads
 * (vfs/objects.ts). A form whose `path` comes before its file goes straight to storage; CloudPaste's
 * client sends the file first, so then the file is spooled to a temp file in the data folder (on
 * disk, never in memory) until the path is known. An upload publishes a file share when the settings
 * say so (fs uploads by default, as the reference does; WebDAV uploads only when turned on).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat as statFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { sameDigest, hasControlChars, isWellFormed, mimeFromFilename, type Principal } from '@cubby/shared';
import type { FilesTable } from '../../db/schema.ts';
import { asStorageAnswer } from '../../vfs/storage-answers.ts';
import { AppError, badRequest, lengthRequired, uploadTooLarge } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { isStorageError, type StoredObjects } from '../../vfs/objects.ts';
import { webBody } from '../../lib/node-body.ts';
import {
  ByteLimit,
  type MountedPath,
  MULTIPART_LIMITS,
  placeOf,
  storageOp,
  storageType,
  type Vfs,
} from '../../vfs/vfs.ts';
import { type FilesRepository, newFileRow } from '../files/files.repository.ts';
import { shareEvent } from '../files/files.service.ts';
import type { Notify } from '../notifications/notifications.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { randomSlug } from '../shares/share-rules.ts';
import { readUploadForm } from './upload-form.ts';

/** The server relay's part size, as the reference recommends it. */
export const RECOMMENDED_PART_SIZE = 5 * 1024 * 1024;
/** Spooled form uploads older than this are leftovers of a crash. */
const SPOOL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long an unfinished relay upload's parts count towards the quota (a day, as its parts are kept). */
const RELAY_RESERVATION_MS = 24 * 60 * 60 * 1000;

/** The quota reservation of a relay or presigned upload, found again by its upload id. */
const relayReservationOf = (configId: string, uploadId: string) => `relay:${configId}:${uploadId}`;
const relayReservation = (at: MountedPath, uploadId: string) => relayReservationOf(at.config.id, uploadId);

export interface MountUploadsDeps {
  vfs: Vfs;
  files: FilesRepository;
  settings: SettingsService;
  clock: Clock;
  /** Where form uploads wait for their path (inside the data folder). */
  spoolDir: string;
  /** What relay and presigned uploads do to storage, as share uploads do it (vfs/objects.ts). */
  objects: StoredObjects;
  /** Announces a share an upload published (modules/notifications). */
  notify?: Notify;
}

/**
 * A file name inside a folder, as the client gave it (NFC): not empty, not `.` or `..`, no `/`, NUL
 * or other control characters — refused, never silently changed. (Its length is the vfs's rule, as
 * for every name a write makes: Vfs.resolveWritable.)
 */
export function fileName(raw: string | undefined): string {
  const name = raw?.normalize('NFC');
  if (
    !name ||
    name === '.' ||
    name === '..' ||
    name.includes('/') ||
    hasControlChars(name) ||
    !isWellFormed(name)
  ) {
    throw badRequest('fs.name_invalid');
  }
  return name;
}

/** A file an upload stored: where, its name, size, ETag and type (answered with its share, if any). */
function uploaded(at: MountedPath, size: number, etag: string | undefined) {
  const name = at.path.split('/').pop()!;
  return { at, name, size, etag: etag ?? null, mimetype: mimeFromFilename(name) };
}

/** The virtual path of `name` inside the folder `dir` (a client path, checked later by the vfs). */
export function inFolder(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, '')}/${name}`;
}

export class MountUploads {
  constructor(private readonly deps: MountUploadsDeps) {}

  private get vfs() {
    return this.deps.vfs;
  }

  // ---- uploads --------------------------------------------------------------------------------

  /**
   * `POST …/fs/upload`: a form with `file` and `path` (the folder) in either order. With
   * `use_multipart=true` the bytes are not kept and a relay upload is started instead (CloudPaste).
   */
  async formUpload(
    principal: Principal,
    request: { body: ReadableStream<Uint8Array> | null; contentType: string; contentLength?: number },
  ) {
    const max = await this.deps.settings.maxUploadBytes();
    if (request.contentLength !== undefined && request.contentLength > max + 1024 * 1024) {
      throw uploadTooLarge(max, request.contentLength);
    }
    if (!request.body) throw badRequest('fs.file_and_path_required');
    let spooled: string | undefined;
    try {
      const form = await readUploadForm(
        request.body,
        request.contentType,
        async (file, before) => {
          const dir = before.get('path');
          const name = fileName(file.filename);
          if (before.get('use_multipart') === 'true') {
            file.stream.resume();
            return { kind: 'multipart' as const, name };
          }
          if (dir !== undefined) {
            const written = await this.writeLimited(principal, inFolder(dir, name), file.stream, max, {
              expected: request.contentLength,
            });
            return { kind: 'stored' as const, name, written };
          }
          // The path comes after the file: keep the bytes on disk until it does.
          await mkdir(this.deps.spoolDir, { recursive: true });
          spooled = path.join(this.deps.spoolDir, `${randomUUID()}.part`);
          const limiter = new ByteLimit(max, false);
          try {
            await pipelineAsync(file.stream, limiter, createWriteStream(spooled));
          } catch (error) {
            if (limiter.failure) throw uploadTooLarge(max, limiter.bytes);
            throw error;
          }
          return { kind: 'spooled' as const, name };
        },
        { wholeFilename: true },
      );
      const dir = form.fields.get('path');
      if (dir === undefined || !form.file) throw badRequest('fs.file_and_path_required');
      const { name } = form.file;
      const target = inFolder(dir, name);
      if (form.file.kind === 'multipart' || form.fields.get('use_multipart') === 'true') {
        return { multipart: await this.initMultipart(principal, { path: dir, filename: name }) };
      }
      const written =
        form.file.kind === 'stored'
          ? form.file.written
          : await this.writeLimited(principal, target, createReadStream(spooled!), max, {
              expected: (await statFile(spooled!)).size,
            });
      const share = await this.recordUpload(principal, written.at, written.size, written.etag, 'fs');
      return { stored: { ...uploaded(written.at, written.size, written.etag), share } };
    } catch (error) {
      if (error instanceof AppError && error.messageKey === 'uploads.file_required') {
        throw badRequest('fs.file_and_path_required');
      }
      throw error;
    } finally {
      if (spooled) await rm(spooled, { force: true });
    }
  }

  /** Streams a Node body into `target` under the upload size limit. */
  private async writeLimited(
    principal: Principal,
    target: string,
    stream: Readable,
    max: number,
    /** At most this many bytes will come (the form's length): the quota reserves them first. */
    bounds: { expected?: number | undefined } = {},
  ) {
    const limiter = new ByteLimit(max, false);
    const body = webBody(pipeline(stream, limiter, () => undefined));
    try {
      const { at, result } = await this.vfs.write(principal, target, body, {
        contentType: mimeFromFilename(target),
        ...(bounds.expected === undefined ? {} : { expected: Math.min(bounds.expected, max) }),
      });
      return { at, size: result.size, etag: result.etag };
    } catch (error) {
      if (limiter.failure?.code === 'TOO_LARGE') throw uploadTooLarge(max, limiter.bytes);
      throw error;
    } finally {
      stream.destroy();
    }
  }

  /**
   * Streams a body into a file in place (WebDAV PUT, a LOCK on a new path), under the upload size
   * limit. `inParts` sends it as a multipart upload whatever its size. Its share records are updated;
   * one is made for a file without any when WebDAV uploads are published. Returns whether the file
   * is new.
   */
  async putFile(
    principal: Principal,
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: { size?: number | undefined; inParts?: boolean } = {},
  ): Promise<{ at: MountedPath; created: boolean; size: number; etag?: string | undefined }> {
    const max = await this.deps.settings.maxUploadBytes();
    if (options.size !== undefined && options.size > max) throw uploadTooLarge(max, options.size);
    const target = await this.vfs.resolveWritable(principal, raw);
    const created = await this.vfs.find(target).then(
      (entry) => entry === null,
      () => true,
    );
    const limiter = new ByteLimit(max, false);
    const limited = webBody(pipeline(Readable.fromWeb(body as NodeReadableStream), limiter, () => undefined));
    let written;
    try {
      written = await this.vfs.write(principal, raw, limited, {
        ...(options.size !== undefined && !options.inParts ? { size: options.size } : {}),
        contentType: mimeFromFilename(target.path),
      });
    } catch (error) {
      if (limiter.failure?.code === 'TOO_LARGE') throw uploadTooLarge(max, limiter.bytes);
      throw error;
    }
    const { at, result } = written;
    await this.recordUpload(principal, at, result.size, result.etag, 'webdav');
    return { at, created, size: result.size, etag: result.etag };
  }

  /**
   * What an upload into a mount leaves in file management. The shares the file already has now
   * describe its new bytes. A new share of it (CloudPaste's `M-` rows; source 'mount_upload', its
   * file kept in the mount when the share goes) is published when the door's setting says so — `fs` (the explorer and the fs API; on by default)
   * always makes one, as the reference does; `webdav` (off by default) only for a file without any.
   * Returns the new share, or null.
   */
  async recordUpload(
    principal: Principal,
    at: MountedPath,
    size: number,
    etag: string | undefined,
    door: 'fs' | 'webdav',
  ): Promise<FilesTable | null> {
    // The shares the file already had follow its new bytes on their own (share-upkeep.ts).
    // A guest is nobody: what it uploads is no share of anyone's.
    const publish = principal.type !== 'guest' && (await this.deps.settings.uploadShares())[door];
    if (!publish) return null;
    if (door === 'webdav' && (await this.deps.files.hasShares(at.config.id, at.subPath))) return null;
    const slug = await randomSlug((s) => this.deps.files.slugExists(s), 'uploads.slug_exhausted');
    const row: FilesTable = {
      ...newFileRow(
        principal,
        {
          slug,
          filename: at.path.split('/').pop()!,
          storage_config_id: at.config.id,
          storage_path: at.subPath,
          size,
          etag: etag ?? null,
          status: 'ready',
        },
        this.deps.clock.now(),
      ),
      source: 'mount_upload',
      // The file belongs to the mount: deleting or retiring the share leaves it there.
      keep_object: 1,
    };
    await this.deps.files.insert(row);
    this.deps.notify?.(shareEvent('share.created', row));
    return row;
  }

  /** Removes spooled uploads a crash left behind; returns how many went. */
  async removeLeftoverSpools(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.deps.spoolDir);
    } catch {
      return 0;
    }
    const before = this.deps.clock.now().getTime() - SPOOL_MAX_AGE_MS;
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.deps.spoolDir, name);
      const info = await statFile(file).catch(() => undefined);
      if (info && info.mtimeMs < before) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** A finished upload must fit the upload limit; one that does not is removed again. */
  private async checkStoredSize(at: MountedPath, size: number): Promise<void> {
    const max = await this.deps.settings.maxUploadBytes();
    if (size <= max) return;
    await this.deps.objects.remove(at.config, at.subPath).catch(() => undefined);
    throw uploadTooLarge(max, size);
  }

  // ---- the server relay (multipart) -----------------------------------------------------------

  /** Starts a relay upload of `filename` into the folder `path`; `key` names it from then on. */
  async initMultipart(principal: Principal, input: { path?: string; filename?: string; fileSize?: number }) {
    if (!input.path) throw badRequest('fs.multipart_path_required');
    const max = await this.deps.settings.maxUploadBytes();
    if (input.fileSize !== undefined && input.fileSize > max) throw uploadTooLarge(max, input.fileSize);
    const { at, uploadId } = await this.startRelay(
      principal,
      inFolder(input.path, fileName(input.filename)),
      input.fileSize ?? 0,
    );
    return {
      uploadId,
      key: at.path,
      path: at.path,
      mount_id: at.mount.id,
      storage_type: storageType(at.config),
      recommendedPartSize: RECOMMENDED_PART_SIZE,
    };
  }

  /**
   * Starts a multipart upload into the file `target` (a virtual path, checked for the caller as any
   * write): its `size` bytes count towards the quota from the start until it completes, is aborted
   * or expires (a day). The relay's and tus's start (modules/tus).
   */
  async startRelay(principal: Principal, target: string, size: number) {
    const at = await this.vfs.resolveWritable(principal, target);
    const uploadId = await storageOp(() =>
      this.deps.objects.initMultipart(at.config, at.subPath, mimeFromFilename(at.path)),
    );
    await this.reserveRelay(at, uploadId, size, RELAY_RESERVATION_MS);
    return { at, uploadId };
  }

  /** Gives up a multipart upload begun by `startRelay` (no caller: the tus janitor's too). */
  async abandonRelay(configId: string, key: string, uploadId: string): Promise<void> {
    await this.deps.objects.abortMultipart(configId, key, uploadId).catch((error: unknown) => {
      if (!isStorageError(error, 'NOT_FOUND')) throw error;
    });
    await this.vfs.releaseReservation(relayReservationOf(configId, uploadId));
  }

  /** The upload's file, from the `key` init answered (checked as any path), or the folder + name. */
  private async relayTarget(principal: Principal, input: { key?: string | undefined; uploadId?: string }) {
    if (!input.key || !input.uploadId) throw badRequest('fs.multipart_params');
    return this.vfs.resolveWritable(principal, input.key);
  }

  async uploadPart(
    principal: Principal,
    input: { key?: string; uploadId?: string; partNumber: number },
    body: ReadableStream<Uint8Array> | null,
    contentLength: number | undefined,
  ) {
    const at = await this.relayTarget(principal, input);
    if (contentLength === undefined) throw lengthRequired('fs.part_length_required');
    if (contentLength === 0 || !body) throw badRequest('fs.part_empty');
    const max = Math.min(await this.deps.settings.maxUploadBytes(), MULTIPART_LIMITS.maxPartSize);
    if (contentLength > max) throw uploadTooLarge(max, contentLength);
    await (await this.vfs.reservation(at, relayReservation(at, input.uploadId!))).consume(contentLength);
    const { etag } = await this.relayOp(() =>
      this.deps.objects.uploadPart(
        at.config,
        at.subPath,
        input.uploadId!,
        input.partNumber,
        body,
        contentLength,
      ),
    );
    return { partNumber: input.partNumber, etag };
  }

  /** The parts the storage holds for an upload: what a client resumes from. */
  async listParts(principal: Principal, input: { key?: string; uploadId?: string }) {
    const at = await this.relayTarget(principal, input);
    const parts = await this.relayOp(() =>
      this.deps.objects.listParts(at.config, at.subPath, input.uploadId!),
    );
    return { key: at.path, uploadId: input.uploadId!, parts };
  }

  /**
   * Completes a relay upload from the parts the storage holds (their ETags must match what the
   * client lists), checks the size against the upload limit and records the file.
   */
  async completeMultipart(
    principal: Principal,
    input: { key?: string; uploadId?: string; parts?: Array<{ partNumber: number; etag: string }> },
  ) {
    const at = await this.relayTarget(principal, input);
    if (!input.parts || input.parts.length === 0) throw badRequest('fs.multipart_params');
    const stored = await this.relayOp(() =>
      this.deps.objects.listParts(at.config, at.subPath, input.uploadId!),
    );
    const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
    const parts = [...input.parts]
      .sort((a, b) => a.partNumber - b.partNumber)
      .map((p) => {
        const held = byNumber.get(p.partNumber);
        if (!held || !sameDigest(held.etag, p.etag)) throw badRequest('fs.parts_mismatch');
        return { partNumber: held.partNumber, etag: held.etag };
      });
    return this.finish(principal, at, input.uploadId!, parts);
  }

  async abortMultipart(principal: Principal, input: { key?: string; uploadId?: string }) {
    const at = await this.relayTarget(principal, input);
    await this.relayOp(() => this.deps.objects.abortMultipart(at.config, at.subPath, input.uploadId!));
    await this.vfs.releaseReservation(relayReservation(at, input.uploadId!));
  }

  /** Reserves a relay or presigned upload's bytes; a refusal (507) aborts the upload it began. */
  private async reserveRelay(at: MountedPath, uploadId: string, bytes: number, ttlMs: number): Promise<void> {
    try {
      await this.vfs.reserve(at, bytes, { id: relayReservation(at, uploadId), ttlMs });
    } catch (error) {
      await this.deps.objects.abortMultipart(at.config, at.subPath, uploadId).catch(() => undefined);
      throw error;
    }
  }

  /** Storage answers of the relay: an unknown upload id is 404, parts the storage refuses 400. */
  private async relayOp<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw asStorageAnswer(error, {
        NOT_FOUND: 'fs.upload_not_found',
        PRECONDITION_FAILED: 'fs.parts_rejected',
        INVALID_RANGE: 'validation.part_number_invalid',
      });
    }
  }

  // ---- presigned uploads ----------------------------------------------------------------------

  /**
   * A URL the browser PUTs the file to (the bucket itself, or this server's signed route for local
   * disk). It is part 1 of a one-part multipart upload, so the bytes appear only on commit and the URL
   * is dead after it (issue 10's single-use rule).
   */
  async presign(
    principal: Principal,
    input: { path?: string; fileName?: string; fileSize?: number },
  ): Promise<{ at: MountedPath; url: URL; uploadId: string; contentType: string; expiresIn: number }> {
    if (!input.path || !input.fileName) throw badRequest('fs.presign_params');
    const name = fileName(input.fileName);
    const at = await this.vfs.resolveWritable(principal, inFolder(input.path, name));
    if (!(await this.deps.objects.canPresignParts(at.config))) throw badRequest('fs.presign_unsupported');
    const size = input.fileSize;
    if (size === undefined) throw badRequest('fs.presign_size_required');
    const max = Math.min(await this.deps.settings.maxUploadBytes(), MULTIPART_LIMITS.maxPartSize);
    if (size > max) throw uploadTooLarge(max, size);
    const contentType = mimeFromFilename(name);
    const uploadId = await storageOp(() =>
      this.deps.objects.initMultipart(at.config, at.subPath, contentType),
    );
    const expiresIn = at.config.signature_expires_in;
    // Until the commit: the bytes go straight to the storage, so they are reserved before the URL is given.
    await this.reserveRelay(at, uploadId, size, expiresIn * 1000 + RELAY_RESERVATION_MS);
    const url = await storageOp(() =>
      this.deps.objects.presignPart(at.config, at.subPath, uploadId, 1, { expiresIn, size }),
    );
    return { at, url, uploadId, contentType, expiresIn };
  }

  /** Completes a presigned upload from what the storage holds and records the file. */
  async commitPresigned(principal: Principal, input: { targetPath?: string; uploadId?: string }) {
    if (!input.targetPath || !input.uploadId) throw badRequest('fs.commit_params');
    const at = await this.vfs.resolveWritable(principal, input.targetPath);
    const stored = await this.relayOp(() =>
      this.deps.objects.listParts(at.config, at.subPath, input.uploadId!),
    );
    const first = stored.find((p) => p.partNumber === 1);
    if (!first) throw badRequest('fs.upload_not_received');
    return this.finish(principal, at, input.uploadId!, [{ partNumber: 1, etag: first.etag }]);
  }

  /**
   * Completes a relay, presigned or tus upload from the parts the storage holds: the file is counted
   * (its change event), its reservation ends, it must fit the upload limit, and it is published —
   * unless `publish` is false (a file received through an upload request, as its form route does).
   */
  async finish(
    principal: Principal,
    at: MountedPath,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
    publish = true,
  ) {
    const previousSize = await this.vfs.sizeBefore(at);
    const result = await this.relayOp(() =>
      this.deps.objects.completeMultipart(at.config, at.subPath, uploadId, parts),
    );
    const entry = await storageOp(() => this.deps.objects.stat(at.config, at.subPath));
    const etag = result.etag ?? entry.etag;
    await this.vfs.report({ kind: 'written', at: placeOf(at), size: entry.size, etag, previousSize });
    await this.vfs.releaseReservation(relayReservation(at, uploadId));
    await this.checkStoredSize(at, entry.size);
    const share = publish ? await this.recordUpload(principal, at, entry.size, etag, 'fs') : null;
    return { ...uploaded(at, entry.size, etag), share };
  }
}
