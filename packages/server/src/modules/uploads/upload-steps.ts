/**
 * The steps every way of uploading a share takes (docs/architecture.md, "Uploads"): a pending
 * file row for the new upload (its config, its folder checked for the caller, its storage key and
 * share fields), the upload limit, making a pending file ready (and telling the vfs what was
 * written), and removing what an upload left. Until its bytes are confirmed a file row is
 * 'pending', which public routes never serve; the server builds every storage key.
 *
 * The ways themselves are upload-stream.ts (form, direct PUT) and upload-parts.ts (presign +
 * commit, multipart through presigned parts, URL sources); upload-ledger.ts keeps the sessions,
 * upload-quota.ts the room, upload-janitor.ts clears what was abandoned. uploads.service.ts puts
 * them together.
 */
import type { Logger } from 'pino';
import { isCreator, type Principal, type SharePolicy } from '@cubby/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FilesTable, UploadSessionsTable } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound, uploadTooLarge } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import type { StorageChange } from '../../vfs/changes.ts';
import { isStorageError, type StoredObjects } from '../../vfs/objects.ts';
import { asStorageAnswer } from '../../vfs/storage-answers.ts';
import { type FilesRepository, newFileRow } from '../files/files.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { shareEvent } from '../files/files.service.ts';
import type { Notify } from '../notifications/notifications.service.ts';
import { randomSlug } from '../shares/share-rules.ts';
import { enforceSharePolicy } from '../shares/share-policy.ts';
import type {
  StorageConfigRecord,
  StorageConfigsService,
} from '../storage-configs/storage-configs.service.ts';
import { buildStorageKey, displayName } from './storage-key.ts';
import type { UploadsRepository } from './uploads.repository.ts';
import type { ShareFields } from './uploads.schemas.ts';

export const HOUR_MS = 3600_000;

/** What a URL source is, as far as an upload needs to know. */
export interface ProbedSource {
  filename: string;
  size: number | null;
}

/** Looks at a URL server-side (SSRF-guarded); throws AppErrors. */
export type UrlProbe = (url: string) => Promise<ProbedSource>;

/** How uploads streamed through this process are kept alive, and when their leftovers are freed. */
export interface StreamTiming {
  /** How often this process marks its streamed uploads as alive. */
  heartbeatMs: number;
  /** A streamed upload silent this long is freed (another machine's, or a pid that may be reused). */
  staleAfterMs: number;
  /** A temp file whose writer cannot be judged is removed once untouched this long. */
  tempMaxAgeMs: number;
}

export const DEFAULT_STREAM_TIMING: StreamTiming = {
  heartbeatMs: 30_000,
  staleAfterMs: 2 * 60_000,
  tempMaxAgeMs: 6 * HOUR_MS,
};

export interface UploadsDeps {
  files: FilesRepository;
  uploads: UploadsRepository;
  storageConfigs: StorageConfigsService;
  /** The uploads' objects in storage (vfs/objects.ts). */
  objects: StoredObjects;
  settings: SettingsService;
  clock: Clock;
  logger: Logger;
  probe?: UrlProbe;
  streamTiming?: Partial<StreamTiming>;
  /**
   * Told of every file a share upload finished (the vfs forgets the folders' listings, the quota
   * counts it); awaited, so the answer to the upload is sent once they followed. Never rejects.
   * What an upload removes, vfs/objects.ts reports.
   */
  storageChanged?: (change: StorageChange) => Promise<void>;
  /**
   * The storage folder an upload into a config goes to, for the folder the client named: checked
   * for the caller on the virtual path (Vfs.shareUploadFolder, where the rule lives).
   */
  place: (principal: Principal, storageConfigId: string, path: string | undefined) => Promise<string>;
  /** Told of every share an upload made ready (modules/notifications). */
  notify?: Notify;
}

/** A driver failure as the answer it deserves (vfs/storage-answers.ts), in the uploads' words. */
export function storageFailure(error: unknown): unknown {
  return asStorageAnswer(error, {
    INVALID_PATH: 'uploads.path_invalid',
    NOT_FOUND: 'uploads.session_not_found',
    PRECONDITION_FAILED: 'uploads.parts_rejected',
    ALREADY_EXISTS: 'uploads.storage_conflict',
    NOT_A_DIRECTORY: 'uploads.storage_conflict',
    IS_A_DIRECTORY: 'uploads.storage_conflict',
  });
}

export interface NewUpload {
  config: StorageConfigRecord;
  row: FilesTable;
  /** The share policy's largest share (null: none), which a streamed body must not pass either. */
  shareMaxBytes?: number | null;
}

export interface OpenSession extends NewUpload {
  session: UploadSessionsTable;
}

export interface Placement extends ShareFields {
  s3_config_id?: string | undefined;
  path?: string | undefined;
  filename: string;
  size: number;
  /** The key ends in `<id>/<name>` instead of `<id>-<name>` (storage-key.ts). */
  ownFolder?: boolean;
}

export class UploadSteps {
  constructor(readonly deps: UploadsDeps) {}

  get files() {
    return this.deps.files;
  }

  /** The upload sessions and streamed uploads in the database. */
  get ledger() {
    return this.deps.uploads;
  }

  get objects() {
    return this.deps.objects;
  }

  now(): Date {
    return this.deps.clock.now();
  }

  async checkSize(size: number): Promise<void> {
    const max = await this.deps.settings.maxUploadBytes();
    if (size > max) throw uploadTooLarge(max, size);
  }

  /** The pending row of a new upload (not yet inserted, share fields applied) and its config. */
  async newUpload(principal: Principal, input: Placement): Promise<NewUpload> {
    const filename = displayName(input.filename);
    if (!filename) throw badRequest('uploads.filename_invalid');
    const config = await this.deps.storageConfigs.resolveForUpload(principal, input.s3_config_id);
    const folder = await this.deps.place(principal, config.id, input.path);
    if (input.slug && (await this.files.slugExists(input.slug))) throw conflict('uploads.slug_taken');
    const slug = input.slug ?? (await randomSlug((s) => this.files.slugExists(s), 'uploads.slug_exhausted'));
    const now = this.now();
    const row = newFileRow(
      principal,
      {
        slug,
        filename,
        storage_config_id: config.id,
        storage_path: buildStorageKey(folder, filename, now, { ownFolder: input.ownFolder ?? false }),
        size: input.size,
        etag: null,
        status: 'pending',
      },
      now,
    );
    const policy = await this.deps.settings.sharePolicy();
    // The share policy holds for every upload door: each makes its pending row here (docs/api.md, "Share policy").
    const columns = await this.shareColumns(input, now);
    Object.assign(
      row,
      columns,
      this.policed(policy, row.created_by, 'create', { ...columns, filename }, input.size, now),
    );
    return { config, row, shareMaxBytes: policy.max_bytes };
  }

  /** The share policy on an upload's share columns (modules/shares/share-policy.ts). */
  private policed(
    policy: SharePolicy,
    createdBy: string | null,
    mode: 'create' | 'update',
    columns: Partial<FilesTable> & { filename?: string },
    size: number,
    now: Date,
  ) {
    return enforceSharePolicy(
      policy,
      {
        createdBy,
        mode,
        expires_at: columns.expires_at,
        max_views: columns.max_views,
        has_password:
          'password_hash' in columns ? columns.password_hash !== null : mode === 'create' ? false : undefined,
        size,
        ...(columns.filename === undefined ? {} : { filenames: [columns.filename] }),
      },
      now,
    );
  }

  /** The columns the given share fields set; absent fields are left out (kept as they are). */
  async shareColumns(fields: ShareFields, now: Date): Promise<Partial<FilesTable>> {
    const out: Partial<FilesTable> = {};
    if (fields.slug !== undefined) out.slug = fields.slug;
    if (fields.remark !== undefined) out.remark = fields.remark || null;
    if (fields.password !== undefined) out.password_hash = await hashPassword(fields.password);
    if (fields.expires_in !== undefined) {
      out.expires_at =
        fields.expires_in > 0 ? new Date(now.getTime() + fields.expires_in * HOUR_MS).toISOString() : null;
    }
    if (fields.max_views !== undefined) out.max_views = fields.max_views;
    if (fields.use_proxy !== undefined) out.use_proxy = fields.use_proxy;
    return out;
  }

  async insert(row: FilesTable): Promise<void> {
    try {
      await this.files.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
  }

  /**
   * The columns the share fields given at an upload's end set, checked by the share policy again on
   * what they change and on the upload's size; throws its AppError.
   */
  async finishColumns(row: FilesTable, fields: ShareFields, size: number): Promise<Partial<FilesTable>> {
    const now = this.now();
    const columns = await this.shareColumns(fields, now);
    this.policed(await this.deps.settings.sharePolicy(), row.created_by, 'update', columns, size, now);
    return columns;
  }

  /**
   * Makes a pending file ready with its stored size and ETag and the given share fields (or the
   * `columns` finishColumns made of them); with `replacing`, in the same transaction the share it
   * replaces goes (its bytes are the caller's).
   */
  async finish(
    row: FilesTable,
    fields: ShareFields | { columns: Partial<FilesTable> },
    stored: { size: number; etag: string | null },
    replacing?: FilesTable,
  ): Promise<FilesTable> {
    const now = this.now();
    const columns = 'columns' in fields ? fields.columns : await this.finishColumns(row, fields, stored.size);
    const changes: Partial<FilesTable> = {
      ...columns,
      size: stored.size,
      etag: stored.etag,
      status: 'ready',
      updated_at: now.toISOString(),
    };
    let updated: boolean;
    try {
      updated = await this.ledger.updatePending(row.id, changes, replacing?.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
    if (!updated) throw conflict('uploads.not_pending');
    await this.deps.storageChanged?.({
      kind: 'written',
      at: { configId: row.storage_config_id, path: row.storage_path },
      size: stored.size,
      etag: stored.etag ?? undefined,
      // A share upload's key is its own (storage-key.ts puts the file's id in it): nothing replaced.
      previousSize: 0,
    });
    const ready = { ...row, ...changes };
    this.deps.notify?.(shareEvent('share.created', ready));
    return ready;
  }

  /** Removes a pending upload's bytes (if any) and its record. */
  async discard(row: FilesTable): Promise<void> {
    await this.removeBytes(row);
    await this.ledger.deletePending(row.id);
  }

  /** Removes a file's bytes; a failure is logged (the bytes are orphaned), a missing file is fine. */
  async removeBytes(
    row: Pick<FilesTable, 'id' | 'storage_config_id' | 'storage_path'>,
    /** The bytes it held, when known (a finished file's); the quota's count follows. */
    size?: number,
  ): Promise<void> {
    try {
      await this.objects.remove(row.storage_config_id, row.storage_path, {
        ownShare: true,
        ...(size === undefined ? {} : { size }),
      });
    } catch (error) {
      if (!isStorageError(error, 'NOT_FOUND')) {
        this.deps.logger.warn({ err: error, file: row.id }, 'could not remove the bytes of a file');
      }
    }
  }

  /** A pending file the principal created: 404 unknown, 403 someone else's, 409 no longer pending. */
  async ownPending(principal: Principal, fileId: string): Promise<FilesTable> {
    const row = await this.files.findById(fileId);
    if (!row) throw notFound('uploads.file_not_found');
    if (!isCreator(principal, row.created_by)) throw forbidden('uploads.not_yours');
    if (row.status !== 'pending') throw conflict('uploads.not_pending');
    return row;
  }
}
