/**
 * File shares after upload: the public info and password check, access to the bytes (password or
 * token, expiry, view limit), counting views, deleting retired shares, and management.
 *
 * Counting: a view is counted on the request that delivers bytes (a GET answered 200/206, or the 302
 * of a direct download) — never on HEAD, 304, 416, the info or the password check. The count is one
 * conditional UPDATE, so exactly `max_views` deliveries happen under any concurrency. A share token
 * counts once for its lifetime: its nonce is recorded with the count (file_view_tokens), and later
 * requests with it deliver without counting — even after the share is used up, while the token lives.
 *
 * Office preview (off until the admin turns it on): GET /api/office-preview/:slug checks access as a
 * download would and answers a fresh token link to the download route for an online viewer to
 * fetch, so the password and the view limit keep applying; the answer itself counts nothing.
 *
 * Retiring: an expired share answers 410 and is deleted (object, then record). A used-up one answers
 * 410 to everyone without a counted token; its object is deleted once the last allowed delivery has
 * ended, its record (a tombstone that makes the next reader's answer 410, not 404) when that reader
 * is refused. Nothing is deleted under a delivery it allowed: not while a stream of this process
 * sends its bytes, nor while a grant (a counted token, a direct download's presigned URL) lives —
 * the purge job deletes what is left, expired and used-up shares alike.
 *
 * Revoking (docs/api.md, "Revoking a share"): every public route answers 410 from the next request
 * on, counted tokens included; the share stays (its owner lists and deletes it) until it would have
 * been retired anyway.
 */
import {
  creatorId,
  type FileItem,
  type FileShare,
  type FileSource,
  isOfficePreviewable,
  mayManage,
  type OfficePreviewAnswer,
  type Principal,
} from '@cubby/shared';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FilesTable } from '../../db/schema.ts';
import {
  type AppError,
  badRequest,
  conflict,
  forbidden,
  gone,
  notFound,
  unauthenticated,
} from '../../errors/app-error.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { isStorageError, type StoredObjects } from '../../vfs/objects.ts';
import type { Notify } from '../notifications/notifications.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  checkShareCredentials,
  checkSharePassword,
  managedShares,
  ownShares,
  randomSlug,
  shareSettingChanges,
  shareState,
  type ShareState,
} from '../shares/share-rules.ts';
import { policedChanges } from '../shares/share-policy.ts';
import { type FilesRepository, grantNonce, newFileRow } from './files.repository.ts';
import { shareLinks, toFileItem, toFileShare } from './files.serializer.ts';
import { FILE_TOKEN_TTL_SECONDS, signFileToken, type VerifiedToken, verifyFileToken } from './files.token.ts';

/** How long a direct download's presigned URL lives, at most. */
export const DIRECT_URL_SECONDS = 300;
const PURGE_BATCH = 200;

export interface FileAccess {
  row: FilesTable;
  /** The request's valid share token, if it brought one. */
  token: VerifiedToken | null;
}

export interface AccessRequest {
  token?: string | undefined;
  password?: string | undefined;
  clientIp: string;
}

export interface FileUpdate {
  remark?: string | null | undefined;
  slug?: string | null | undefined;
  expires_at?: string | null | undefined;
  expires_in?: number | undefined;
  max_views?: number | undefined;
  password?: string | null | false | undefined;
  use_proxy?: boolean | 0 | 1 | undefined;
}

export interface FileDetail extends FileItem {
  urls: {
    previewUrl: string;
    downloadUrl: string;
    proxyPreviewUrl: string;
    proxyDownloadUrl: string;
    use_proxy: number;
  };
}

export class FilesService {
  /** Streams now sending each share's bytes, and who waits for them to end. */
  private readonly deliveries = new Map<string, { count: number; idle: Array<() => void> }>();
  /** Deletions under way, by file id. */
  private readonly retiring = new Map<string, Promise<void>>();

  constructor(
    readonly repo: FilesRepository,
    /** The shares' objects in storage (vfs/objects.ts). */
    readonly objects: StoredObjects,
    private readonly clock: Clock,
    private readonly passwordLimiter: AttemptLimiter,
    private readonly options: {
      secretKey: string;
      logger: Logger;
      settings: Pick<SettingsService, 'officePreviewEnabled' | 'sharePolicy'>;
      /** Aborts the unfinished multipart uploads of a pending share (UploadsService), before its row goes. */
      abortUploads?: (fileId: string) => Promise<void>;
      /** Told when a share is made from a mount's file or a view counted (modules/notifications). */
      notify?: Notify;
    },
  ) {}

  // ---- reading --------------------------------------------------------------------------------

  /** GET /api/public/files/:slug: never counts; a protected share shows no URL. */
  async info(slug: string, origin: string): Promise<FileShare> {
    const row = await this.live(slug);
    const officePreview = await this.offersOfficePreview(row);
    if (row.password_hash) return toFileShare(row, { origin, links: null, officePreview });
    return toFileShare(row, { origin, token: this.token(row), officePreview });
  }

  /** POST /api/public/files/:slug/verify: the info with token URLs once the password is right. */
  async verify(
    slug: string,
    password: string | undefined,
    clientIp: string,
    origin: string,
  ): Promise<{ share: FileShare; passwordNeeded: boolean }> {
    if (!password) throw badRequest('files.password_missing');
    const row = await this.live(slug);
    if (row.password_hash) {
      await checkSharePassword(
        this.passwordLimiter,
        { share: `file:${row.id}`, clientIp },
        row.password_hash,
        password,
        () => unauthenticated('files.wrong_password_verify'),
      );
    }
    const share = toFileShare(row, {
      origin,
      token: this.token(row),
      requiresPassword: false,
      officePreview: await this.offersOfficePreview(row),
    });
    return { share, passwordNeeded: row.password_hash !== null };
  }

  /**
   * GET /api/office-preview/:slug: 403 while the admin has not turned Office preview on; then the
   * access rules of a download (404, 410, 401, 403, 429); 400 for a file the viewer cannot show.
   * Answers a link to the download route with a fresh token — never a storage URL — so the viewer's
   * fetch counts one view. Counts nothing itself.
   */
  async officePreview(slug: string, request: AccessRequest, origin: string): Promise<OfficePreviewAnswer> {
    if (!(await this.options.settings.officePreviewEnabled())) {
      throw forbidden('files.office_preview_disabled');
    }
    const { row } = await this.access(slug, request);
    if (!isOfficePreviewable(row.filename)) throw badRequest('files.not_office');
    // A counted token may still read a used-up share, but a new token would not: say so now.
    if (shareState(row, this.clock.now()) === 'used_up') throw gone('files.used_up');
    return {
      url: shareLinks(origin, row.slug, this.token(row)).download,
      filename: row.filename,
      mimetype: row.mimetype,
      expires_in: FILE_TOKEN_TTL_SECONDS,
    };
  }

  /**
   * May this request have the bytes? 404 for an unknown or unfinished share; 410 for an expired or
   * used-up one (a token counted earlier still reads a used-up share); for a protected share a valid
   * token or the password: 401 with neither, 403 when wrong, 429 after too many wrong guesses.
   */
  async access(slug: string, request: AccessRequest): Promise<FileAccess> {
    const row = await this.repo.findBySlug(slug);
    if (!row || row.status !== 'ready') throw notFound('files.not_found');
    const now = this.clock.now();
    const check = request.token ? verifyFileToken(this.options.secretKey, row, request.token, now) : null;
    const token = check?.ok ? check.token : null;
    const state = shareState(row, now);
    // A revoked share is refused even to a token counted before (docs/api.md, "Revoking a share").
    if (state === 'expired' || state === 'revoked') this.refuseGone(row, state);
    if (state === 'used_up') {
      const counted = token && (await this.repo.hasGrant(row.id, token.nonce, now.toISOString()));
      if (!counted) this.refuseGone(row, state);
    }
    if (row.password_hash && !token) {
      await checkShareCredentials(
        this.passwordLimiter,
        { share: `file:${row.id}`, clientIp: request.clientIp },
        row.password_hash,
        { check: check && !check.ok ? check : null, password: request.password },
        'files',
      );
    }
    return { row, token };
  }

  /**
   * Counts the view of a request that is about to deliver bytes. With `grantSeconds` (a direct
   * download) the share is also kept for that long should this be its last view. Returns the row as
   * counted and whether that view was its last; 410 (or 404) when the share went meanwhile.
   */
  async countView(access: FileAccess, grantSeconds?: number): Promise<{ row: FilesTable; usedUp: boolean }> {
    const { row, token } = access;
    const now = this.clock.now();
    const grant =
      grantSeconds && row.max_views > 0
        ? { nonce: grantNonce(), expiresAt: new Date(now.getTime() + grantSeconds * 1000).toISOString() }
        : undefined;
    const outcome = await this.repo.countView(row.id, now.toISOString(), {
      ...(token ? { token: { nonce: token.nonce, expiresAt: token.expiresAt.toISOString() } } : {}),
      ...(grant ? { grant } : {}),
    });
    if (outcome.outcome === 'counted') {
      const counted = outcome.row;
      this.options.notify?.(shareEvent('share.viewed', counted));
      return { row: counted, usedUp: counted.max_views > 0 && counted.views >= counted.max_views };
    }
    if (outcome.outcome === 'already_counted') return { row, usedUp: false };
    // Someone else took the last view, or it expired, between the check and the count.
    const fresh = await this.repo.findById(row.id);
    if (!fresh || fresh.status !== 'ready') throw notFound('files.not_found');
    const state = shareState(fresh, now);
    if (state === 'active') throw notFound('files.not_found');
    return this.refuseGone(fresh, state);
  }

  /** Where local presigned URLs are made (to be moved onto the client's origin). */
  get internalBaseUrl(): string {
    return this.objects.internalBaseUrl;
  }

  /**
   * Marks a stream of the share's bytes as running until the returned function is called (once),
   * so that the share is not deleted under it.
   */
  beginDelivery(id: string): () => void {
    const entry = this.deliveries.get(id) ?? { count: 0, idle: [] };
    entry.count++;
    this.deliveries.set(id, entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.count--;
      if (entry.count === 0) {
        this.deliveries.delete(id);
        for (const wake of entry.idle) wake();
      }
    };
  }

  /**
   * Deletes a retired share — `object` only its bytes, after its last allowed view was delivered (the
   * record stays so the next reader learns it was used up); `share` object and record, once a reader
   * was refused — after the streams sending its bytes have ended, and for a used-up share only once
   * no live grant needs it.
   */
  retire(id: string, what: 'share' | 'object' = 'share'): void {
    const key = `${what}:${id}`;
    if (this.retiring.has(key)) return;
    const done = this.whenIdle(id)
      .then(async () => void (await this.deleteIfRetired(id, what)))
      .catch((err: unknown) => this.options.logger.warn({ err, fileId: id }, 'retiring a file share failed'))
      .finally(() => this.retiring.delete(key));
    this.retiring.set(key, done);
  }

  /** Resolves when every deletion started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.retiring.size > 0) await Promise.all([...this.retiring.values()]);
  }

  /** Deletes expired shares, and used-up ones no live grant needs, with their objects. */
  async purge(): Promise<number> {
    const now = this.clock.now().toISOString();
    await this.repo.deleteExpiredGrants(now);
    let deleted = 0;
    const seen = new Set<string>();
    for (;;) {
      const rows = (await this.repo.findRetired(now, PURGE_BATCH)).filter((r) => !seen.has(r.id));
      if (rows.length === 0) return deleted;
      for (const row of rows) {
        seen.add(row.id);
        await this.whenIdle(row.id);
        if (await this.deleteIfRetired(row.id)) deleted++;
      }
    }
  }

  // ---- management -----------------------------------------------------------------------------

  async list(
    principal: Principal,
    options: {
      offset: number;
      limit: number;
      search?: string;
      own: boolean;
      storageConfigId?: string;
      source?: FileSource;
    },
  ): Promise<{ files: FileItem[]; total: number }> {
    const { rows, total } = await this.repo.list({
      offset: options.offset,
      limit: options.limit,
      search: options.search?.trim() || undefined,
      whose: options.own ? ownShares(principal) : undefined,
      storageConfigId: options.storageConfigId,
      source: options.source,
    });
    const now = this.clock.now();
    return { files: rows.map((r) => toFileItem(r, now)), total };
  }

  async get(principal: Principal, id: string, origin: string): Promise<FileDetail> {
    const row = await this.owned(principal, id);
    const listed = await this.repo.findListRow(row.id);
    if (!listed) throw this.notOwned(principal);
    const links = shareLinks(origin, row.slug, this.token(row));
    return {
      ...toFileItem(listed, this.clock.now()),
      urls: {
        previewUrl: links.preview,
        downloadUrl: links.download,
        proxyPreviewUrl: links.preview,
        proxyDownloadUrl: links.download,
        use_proxy: row.use_proxy ? 1 : 0,
      },
    };
  }

  async update(principal: Principal, id: string, input: FileUpdate, origin: string): Promise<FileDetail> {
    const row = await this.owned(principal, id);
    const now = this.clock.now();
    const changes: Partial<FilesTable> = await policedChanges(
      this.options.settings,
      await shareSettingChanges(input, row, now),
      { createdBy: row.created_by, mode: 'update' },
      now,
    );
    if (input.use_proxy !== undefined) changes.use_proxy = input.use_proxy ? 1 : 0;
    if (input.slug !== undefined && input.slug !== row.slug) {
      if (input.slug && (await this.repo.slugExists(input.slug))) throw conflict('files.slug_taken');
      changes.slug = input.slug || (await randomSlug((s) => this.repo.slugExists(s), 'files.slug_exhausted'));
    }
    changes.updated_at = now.toISOString();
    try {
      await this.repo.update(row.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('files.slug_taken');
      throw error;
    }
    return this.get(principal, row.id, origin);
  }

  /**
   * A new share of a file that lives in a mount (the explorer's "Share…"): the mount keeps the file,
   * so expiring, using up or deleting the share never deletes it. `settings` as for an update.
   */
  async shareStored(
    principal: Principal,
    stored: Pick<FilesTable, 'filename' | 'storage_config_id' | 'storage_path' | 'size' | 'etag'> &
      Partial<Pick<FilesTable, 'use_proxy'>>,
    settings: FileUpdate,
    origin: string,
  ): Promise<FileDetail> {
    const { slug: wanted, ...rest } = settings;
    const now = this.clock.now();
    // The policy first, with the defaults a new share gets: nothing is inserted when it refuses.
    const policed = await policedChanges(
      this.options.settings,
      await shareSettingChanges(rest, { views: 0 }, now),
      { createdBy: creatorId(principal), mode: 'create', size: stored.size, filenames: [stored.filename] },
      now,
    );
    if (wanted && (await this.repo.slugExists(wanted))) throw conflict('files.slug_taken');
    const slug = wanted || (await randomSlug((s) => this.repo.slugExists(s), 'files.slug_exhausted'));
    const row = {
      ...newFileRow(principal, { ...stored, slug, status: 'ready' }, now),
      ...policed,
      ...(stored.use_proxy === undefined ? {} : { use_proxy: stored.use_proxy }),
      ...(rest.use_proxy === undefined ? {} : { use_proxy: rest.use_proxy ? 1 : 0 }),
      keep_object: 1,
    };
    try {
      await this.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('files.slug_taken');
      throw error;
    }
    this.options.notify?.(shareEvent('share.created', row));
    return this.get(principal, row.id, origin);
  }

  /** Revokes a share its principal manages: its links answer 410 from now on. */
  async revoke(principal: Principal, id: string, origin: string): Promise<FileDetail> {
    const row = await this.owned(principal, id);
    await this.repo.revoke(row.id, this.clock.now().toISOString());
    return this.get(principal, row.id, origin);
  }

  /** Deletes a share and its object; false when the object could not be deleted (logged; the record goes). */
  async delete(principal: Principal, id: string): Promise<{ objectDeleted: boolean }> {
    const row = await this.owned(principal, id);
    return { objectDeleted: await this.deleteShare(row) };
  }

  /** Deletes the given shares a principal may manage; ids of others and unknown ids are skipped. */
  async batchDelete(
    principal: Principal,
    ids: string[],
  ): Promise<{ count: number; objectFailures: string[] }> {
    const rows = await this.repo.findMany([...new Set(ids)], managedShares(principal));
    const objectFailures: string[] = [];
    for (const row of rows) if (!(await this.deleteShare(row))) objectFailures.push(row.id);
    return { count: rows.length, objectFailures };
  }

  /** Deletes shares and their objects by id, whoever owns them (a deleted person's, when the admin says so). */
  async deleteAll(ids: string[]): Promise<number> {
    const rows = await this.repo.findMany([...new Set(ids)]);
    for (const row of rows) await this.deleteShare(row);
    return rows.length;
  }

  // ---- helpers --------------------------------------------------------------------------------

  private async offersOfficePreview(row: FilesTable): Promise<boolean> {
    return isOfficePreviewable(row.filename) && (await this.options.settings.officePreviewEnabled());
  }

  private token(row: FilesTable): string {
    return signFileToken(this.options.secretKey, row, this.clock.now());
  }

  /** A ready share that can still be opened; 404, or 410 (retiring it) when it cannot. */
  private async live(slug: string): Promise<FilesTable> {
    const row = await this.repo.findBySlug(slug);
    if (!row || row.status !== 'ready') throw notFound('files.not_found');
    const state = shareState(row, this.clock.now());
    if (state !== 'active') this.refuseGone(row, state);
    return row;
  }

  private refuseGone(row: FilesTable, state: Exclude<ShareState, 'active'>): never {
    if (state === 'revoked') throw gone('files.revoked');
    this.retire(row.id);
    throw gone(state === 'expired' ? 'files.expired' : 'files.used_up');
  }

  private whenIdle(id: string): Promise<void> {
    const entry = this.deliveries.get(id);
    if (!entry) return Promise.resolve();
    return new Promise((resolve) => entry.idle.push(resolve));
  }

  /** Deletes the share (or its object) if it is still expired, or used up with no live grant. */
  private async deleteIfRetired(id: string, what: 'share' | 'object' = 'share'): Promise<boolean> {
    const row = await this.repo.findById(id);
    if (!row || row.status !== 'ready') return false;
    const now = this.clock.now();
    // Revoking alone retires nothing: the share goes once it is expired or used up as well.
    const state = shareState({ ...row, revoked_at: null }, now);
    if (state === 'active' || state === 'revoked') return false;
    if (state === 'used_up' && (await this.repo.hasLiveGrants(id, now.toISOString()))) return false;
    if (what === 'object') await this.deleteObject(row);
    else await this.deleteShare(row);
    return true;
  }

  /** Deletes the object, then the record; a storage failure is logged and the record still goes. */
  private async deleteShare(row: FilesTable): Promise<boolean> {
    // A pending share may have a multipart upload open in storage; deleting its row would orphan it.
    if (row.status === 'pending') await this.options.abortUploads?.(row.id);
    const objectDeleted = await this.deleteObject(row);
    await this.repo.delete(row.id);
    return objectDeleted;
  }

  /** Deletes a share's object; false (logged) when the storage refused. A missing object is deleted. */
  private async deleteObject(row: FilesTable): Promise<boolean> {
    // A mount's file shared from the explorer stays in the mount.
    if (row.keep_object) return true;
    try {
      // Reported gone, so the vfs forgets the folder's listings and the quota its bytes.
      await this.objects.remove(row.storage_config_id, row.storage_path, {
        ownShare: true,
        ...(row.status === 'ready' ? { size: row.size } : {}),
      });
      return true;
    } catch (err) {
      if (isStorageError(err, 'NOT_FOUND')) return true;
      this.options.logger.warn(
        { err, fileId: row.id, storageConfigId: row.storage_config_id },
        'deleting a file share object failed',
      );
      return false;
    }
  }

  private async owned(principal: Principal, id: string): Promise<FilesTable> {
    const row = await this.repo.findById(id);
    if (!row || !mayManage(principal, row)) throw this.notOwned(principal);
    return row;
  }

  private notOwned(principal: Principal): AppError {
    return notFound(principal.type === 'admin' ? 'files.not_found' : 'files.not_found_or_forbidden');
  }
}

/** A file share as notifications name it. */
export function shareEvent(event: 'share.created' | 'share.viewed', row: FilesTable) {
  return {
    event,
    share: { kind: 'file', id: row.id, slug: row.slug, name: row.filename, owner_id: row.owner_id },
  };
}
