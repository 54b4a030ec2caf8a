/**
 * Upload requests (issue 24, docs/api.md "Upload requests"): a link that lets someone without an
 * account upload files INTO a folder of a mount its creator may write, or into a new bundle. Every
 * upload into a folder goes through the vfs with the creator's rights as they are now (confinement,
 * locks, quota, name limits, change events); every upload into a bundle becomes a file share of the
 * creator on the default storage, appended to the bundle (BundlesService.appendFile). Streamed,
 * never buffered; the request's limits are counted in its row, exactly, however many uploads race
 * (UploadRequestsRepository.reserve), whichever the target.
 *
 * The link's token is derived from the request's id with the server secret and never stored; the
 * row keeps its HMAC, which the public routes look it up by (migration 0023).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { type Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import {
  canonicalType,
  formatBytes,
  hasControlChars,
  mimeFromFilename,
  type Principal,
  type PublicUploadRequest,
  typeAllowed,
  type UploadRequestInfo,
  userIdOf,
  creatorId,
  mayManage,
} from '@cubby/shared';
import { z } from 'zod';
import type { UploadRequestsTable } from '../../db/schema.ts';
import type { AppError } from '../../errors/app-error.ts';
import {
  badRequest,
  conflict,
  forbidden,
  gone,
  invalidFields,
  notFound,
  tooLarge,
  unauthenticated,
  unsupportedType,
} from '../../errors/app-error.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, hmacHex, randomString } from '../../lib/crypto.ts';
import { webBody } from '../../lib/node-body.ts';
import { openLink, signLink, stampDigest, stampMatches } from '../../lib/signed-link.ts';
import { MAX_NAME_BYTES, type MountedPath, type Vfs } from '../../vfs/vfs.ts';
import type { BundlesService } from '../bundles/bundles.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { checkSharePassword, managedShares, shareState } from '../shares/share-rules.ts';
import type { Notify } from '../notifications/notifications.service.ts';
import type { UploadRequestsRepository } from './upload-requests.repository.ts';

/** What password access tokens are signed for (lib/signed-link.ts). */
const ACCESS_PURPOSE = 'upload-request-access';
/** How long a right password opens a request for (each upload checks it when it starts). */
const ACCESS_SECONDS = 2 * 60 * 60;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A per-upload subfolder: its time and a random tail (the uploader's page sends it back for the batch). */
const BATCH_PATTERN = /^\d{4}-\d{2}-\d{2} \d{6} [a-z0-9]{6}$/;
/** Tries at a free name (`a (1).txt` …) before giving up. */
const NAME_TRIES = 100;
/** Longest name an upload keeps (bytes), leaving room for ` (99)` under the vfs's limit. */
const NAME_MAX_BYTES = MAX_NAME_BYTES - 8;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const accessPayload = z.object({ r: z.string(), h: z.string().optional(), e: z.number() });

/** The fields of a new request (or the changes to one: every field optional there). */
export interface UploadRequestInput {
  target_path?: string | undefined;
  bundle?: boolean | undefined;
  password?: string | null | undefined;
  /** Hours; null or 0: never. */
  expires_in?: number | null | undefined;
  max_files?: number | undefined;
  max_file_size?: number | undefined;
  max_total_size?: number | undefined;
  allowed_types?: string[] | undefined;
  message?: string | null | undefined;
  show_uploads?: boolean | undefined;
  subfolder_per_upload?: boolean | undefined;
}

/** A file offered to a request by any door (the form route here; tus later). */
export interface OfferedUpload {
  /** The name the uploader gave; sanitised here. */
  name: string;
  /** Bytes, when the door knows them before they flow (reserved first). */
  size?: number | undefined;
  /** The type the uploader claimed; the rule goes by the name, which is what everyone will see. */
  type?: string | undefined;
  stream: Readable;
  /** The access token a right password gave, for a protected request. */
  access?: string | undefined;
  /** The subfolder an earlier file of the same upload went into (per-upload subfolders). */
  batch?: string | undefined;
  /** The uploader's address, kept only as an HMAC. */
  clientIp?: string | undefined;
}

/** A file's reserved place in a request (beginUpload), until it ends or is dropped. */
export interface UploadSlot {
  row: UploadRequestsTable;
  /** The request's creator as they are now: the bytes are written with their rights. */
  owner: Principal;
  /** The sanitised name asked for (the stored one may be numbered: `at`; a bundle's file share keeps it). */
  name: string;
  /** Most bytes this file may have. */
  limit: number;
  tooLarge(): AppError;
  /** Bytes reserved in the request's total so far. */
  reserved: number;
  batch: string | null;
  folder: string;
  /** Its row among the request's files (status `uploading` until it ends). */
  fileId: string;
  /** Where the file goes in the folder; null for a request into a bundle. */
  at: MountedPath | null;
  /** The bundle's slug, for a request into a bundle. */
  bundle?: string | undefined;
}

export interface AcceptedUpload {
  request_id: string;
  name: string;
  size: number;
  /** The per-upload subfolder, or null. */
  batch: string | null;
}

export interface UploadRequestsDeps {
  repo: UploadRequestsRepository;
  vfs: Vfs;
  settings: Pick<SettingsService, 'maxUploadBytes'>;
  clock: Clock;
  limiter: AttemptLimiter;
  secretKey: string;
  /** The creator as they are now (`created_by`: a person's id or `apikey:<id>`), or null when gone. */
  principalOf(createdBy: string): Promise<Principal | null>;
  /** Told of every file received (modules/notifications: webhooks `share.uploaded`, the owner's email). */
  notify?: Notify;
  /** Requests into a bundle: the bundle, and the file shares its uploads become. */
  bundles: Pick<BundlesService, 'create' | 'openById' | 'linkOf' | 'appendFile' | 'removeFile'>;
  shares: Pick<UploadsService, 'streamShare'>;
}

/** The permission a key needs to own a request: write a mount folder, or make file shares. */
const permissionFor = (intoBundle: boolean) => (intoBundle ? 'file' : 'mount');

/**
 * A file name as an uploader's browser or client sent it, made safe to store: only its last path
 * segment (`../x`, `a/b`, `a\b` keep `x`, `b`), no control characters (NUL included), well-formed,
 * no leading dots or spaces (no hidden files, no `.`/`..`), at most {@link NAME_MAX_BYTES} bytes with
 * its extension kept; `file` when nothing is left.
 */
export function sanitiseName(raw: string): string {
  // Lone surrogates (ill-formed UTF-16) become U+FFFD, as String#toWellFormed does.
  let name = raw.replace(LONE_SURROGATE, '\uFFFD').normalize('NFC');
  name = [...name].filter((ch) => !hasControlChars(ch)).join('');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
  if (name === '') return 'file';
  if (Buffer.byteLength(name) <= NAME_MAX_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - ext.length);
  while (Buffer.byteLength(stem + ext) > NAME_MAX_BYTES) stem = [...stem].slice(0, -1).join('');
  return stem + ext;
}

/** `name` with ` (n)` before its extension: the n-th free name tried. */
function numbered(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/**
 * Holds a file to its size limit and, when the request has a total limit, reserves each chunk's
 * bytes in it as they arrive — exactly what is needed, never a step ahead, so a refusal always means
 * the request is really full (no room held back by an upload that may end smaller).
 */
class UploadMeter extends Transform {
  bytes = 0;
  failure: AppError | undefined;

  constructor(
    private readonly limit: number,
    private reserved: number,
    /** Null: no total limit, the bytes are counted when the file is complete. */
    private readonly reserve: ((bytes: number) => Promise<boolean>) | null,
    private readonly tooLarge: () => AppError,
    private readonly full: () => Promise<AppError>,
  ) {
    super();
  }

  get reservedBytes(): number {
    return this.reserved;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      this.failure = this.tooLarge();
      done(this.failure);
      return;
    }
    if (!this.reserve || this.bytes <= this.reserved) {
      done(null, chunk);
      return;
    }
    const needed = this.bytes - this.reserved;
    this.reserve(needed).then(
      async (ok) => {
        if (ok) {
          this.reserved += needed;
          return done(null, chunk);
        }
        this.failure = await this.full();
        done(this.failure);
      },
      (error: unknown) => done(error as Error),
    );
  }
}

export class UploadRequestsService {
  constructor(private readonly deps: UploadRequestsDeps) {}

  /** The link's token: derived from the id, never stored (see the file comment). */
  tokenOf(id: string): string {
    return createHmac('sha256', this.deps.secretKey).update(`cubby-upload-request ${id}`).digest('base64url');
  }

  private tokenHash(token: string): string {
    return hmacHex(this.deps.secretKey, `upload-request:${token}`);
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  // ---- the owner's side ---------------------------------------------------------------------

  /**
   * A new request into `target_path` (a folder `principal` may write) or, with `bundle: true`, into
   * a new empty bundle of theirs (who may make file shares may, docs/api.md "Upload requests").
   */
  async create(principal: Principal, input: UploadRequestInput): Promise<UploadRequestsTable> {
    if (input.bundle && input.target_path !== undefined) throw badRequest('upload_requests.target_or_bundle');
    if (!input.bundle && !input.target_path) throw badRequest('upload_requests.target_required');
    const permission = permissionFor(input.bundle === true);
    if (principal.type === 'apikey' && !principal.permissions[permission]) {
      throw forbidden('auth.permission_required', { permission });
    }
    const target = input.target_path ? await this.writableFolder(principal, input.target_path) : '';
    const now = this.now().toISOString();
    const id = randomUUID();
    const bundle = input.bundle
      ? await this.deps.bundles.create(
          principal,
          { items: [], title: input.message?.slice(0, 200) || `Upload request ${now.slice(0, 10)}` },
          '',
        )
      : null;
    const row: UploadRequestsTable = {
      id,
      token_hash: this.tokenHash(this.tokenOf(id)),
      target_path: target,
      bundle_id: bundle?.id ?? null,
      // A bundle has no subfolders.
      per_upload_subfolder: input.subfolder_per_upload && !input.bundle ? 1 : 0,
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: this.expiry(input.expires_in),
      max_files: input.max_files ?? 0,
      max_file_size: input.max_file_size ?? 0,
      max_total_size: input.max_total_size ?? 0,
      allowed_types: JSON.stringify(canonicalTypes(input.allowed_types ?? [])),
      message: input.message || null,
      show_uploads: input.show_uploads ? 1 : 0,
      files_count: 0,
      bytes_total: 0,
      revoked_at: null,
      created_by: creatorId(principal),
      owner_id: userIdOf(principal),
      created_at: now,
      updated_at: now,
    };
    await this.deps.repo.insert(row);
    return row;
  }

  /** The owner's requests (an admin: everyone's), newest first. */
  list(principal: Principal): Promise<UploadRequestsTable[]> {
    return this.deps.repo.list(managedShares(principal));
  }

  /** A request its owner (or the admin) manages by its token; 404 for anyone else. */
  async managed(principal: Principal, token: string): Promise<UploadRequestsTable> {
    const row = await this.byToken(token);
    if (!mayManage(principal, row)) throw notFound('upload_requests.not_found');
    return row;
  }

  async update(principal: Principal, token: string, input: UploadRequestInput): Promise<UploadRequestsTable> {
    const row = await this.managed(principal, token);
    const changes: Partial<UploadRequestsTable> = { updated_at: this.now().toISOString() };
    if (input.bundle !== undefined && input.bundle !== (row.bundle_id !== null)) {
      throw badRequest('upload_requests.bundle_fixed');
    }
    if (input.target_path !== undefined && row.bundle_id) throw badRequest('upload_requests.bundle_fixed');
    if (input.target_path !== undefined) {
      changes.target_path = await this.writableFolder(principal, input.target_path);
    }
    if (input.password !== undefined) {
      changes.password_hash = input.password ? await hashPassword(input.password) : null;
    }
    if (input.expires_in !== undefined) changes.expires_at = this.expiry(input.expires_in);
    if (input.max_files !== undefined) changes.max_files = input.max_files;
    if (input.max_file_size !== undefined) changes.max_file_size = input.max_file_size;
    if (input.max_total_size !== undefined) changes.max_total_size = input.max_total_size;
    if (input.allowed_types !== undefined) {
      changes.allowed_types = JSON.stringify(canonicalTypes(input.allowed_types));
    }
    if (input.message !== undefined) changes.message = input.message || null;
    if (input.show_uploads !== undefined) changes.show_uploads = input.show_uploads ? 1 : 0;
    // A bundle has no subfolders.
    if (input.subfolder_per_upload !== undefined && !row.bundle_id) {
      changes.per_upload_subfolder = input.subfolder_per_upload ? 1 : 0;
    }
    await this.deps.repo.update(row.id, changes);
    return { ...row, ...changes };
  }

  /** Revokes a request: uploads are refused from now on (410); what was uploaded stays. */
  async revoke(principal: Principal, token: string): Promise<UploadRequestsTable> {
    const row = await this.managed(principal, token);
    if (row.revoked_at) return row;
    const at = this.now().toISOString();
    await this.deps.repo.update(row.id, { revoked_at: at, updated_at: at });
    return { ...row, revoked_at: at, updated_at: at };
  }

  /** A request as its owner sees it; with its uploads when asked. */
  async info(row: UploadRequestsTable, origin: string, withUploads = false): Promise<UploadRequestInfo> {
    const token = this.tokenOf(row.id);
    const info: UploadRequestInfo = {
      id: row.id,
      token,
      url: `${origin}/r/${token}`,
      target_path: row.bundle_id ? null : row.target_path,
      ...(await this.bundleLink(row, origin)),
      subfolder_per_upload: row.per_upload_subfolder === 1,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_files: row.max_files,
      max_file_size: row.max_file_size,
      max_total_size: row.max_total_size,
      allowed_types: JSON.parse(row.allowed_types) as string[],
      message: row.message,
      show_uploads: row.show_uploads === 1,
      files_count: row.files_count,
      bytes_total: row.bytes_total,
      revoked_at: row.revoked_at,
      state: this.state(row),
      created_by: row.created_by,
      owner_id: row.owner_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    if (withUploads) {
      info.uploads = (await this.deps.repo.files(row.id)).map((f) => ({
        id: f.id,
        name: f.name,
        path: row.bundle_id ? null : f.virtual_path,
        size: f.size,
        created_at: f.created_at,
      }));
    }
    return info;
  }

  /** A bundle request's `bundle_slug` and `bundle_url` (null when the bundle is gone); nothing for a folder one. */
  private async bundleLink(row: UploadRequestsTable, origin: string) {
    if (!row.bundle_id) return {};
    const link = await this.deps.bundles.linkOf(row.bundle_id, origin);
    return { bundle_slug: link?.slug ?? null, bundle_url: link?.url ?? null };
  }

  // ---- the uploader's side ------------------------------------------------------------------

  /** What an uploader may know (the message and the list only once a password, if any, was given). */
  async publicInfo(token: string, access: string | undefined, origin: string): Promise<PublicUploadRequest> {
    const row = await this.live(token);
    const verified = this.hasAccess(row, access);
    const allowed = JSON.parse(row.allowed_types) as string[];
    const info: PublicUploadRequest = {
      message: verified ? row.message : null,
      requires_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_files: row.max_files,
      max_file_size: row.max_file_size,
      max_total_size: row.max_total_size,
      allowed_types: allowed,
      remaining_files: row.max_files > 0 ? Math.max(0, row.max_files - row.files_count) : null,
      remaining_bytes: row.max_total_size > 0 ? Math.max(0, row.max_total_size - row.bytes_total) : null,
      per_upload_subfolder: row.per_upload_subfolder === 1,
      show_uploads: row.show_uploads === 1,
    };
    if (verified && row.show_uploads === 1) {
      info.uploads = (await this.deps.repo.files(row.id)).map((f) => ({
        name: f.name,
        size: f.size,
        created_at: f.created_at,
      }));
      Object.assign(info, await this.bundleLink(row, origin));
    }
    return info;
  }

  /** A password guess (under the share limits); the right one gives an access token for a while. */
  async verify(
    token: string,
    password: string,
    clientIp: string,
  ): Promise<{ access_token: string; expires_at: string }> {
    const row = await this.live(token);
    if (!row.password_hash) return this.accessToken(row);
    if (password === '') throw badRequest('upload_requests.password_required');
    await checkSharePassword(
      this.deps.limiter,
      { share: `upload-request:${row.id}`, clientIp },
      row.password_hash,
      password,
      () => unauthenticated('upload_requests.wrong_password'),
    );
    return this.accessToken(row);
  }

  /**
   * Takes one file into a request through the form route: the checks and the reserved place of
   * `beginUpload`, the bytes streamed into it under the creator's rights (a total limit reserving
   * further bytes as they arrive when the size was not declared), then `endUpload`. A failure leaves
   * no file and no count.
   */
  async acceptUpload(token: string, offered: OfferedUpload): Promise<AcceptedUpload> {
    let slot: UploadSlot;
    try {
      slot = await this.beginUpload(token, offered);
    } catch (error) {
      offered.stream.destroy();
      throw error;
    }
    const { row } = slot;
    const meter = new UploadMeter(
      slot.limit,
      slot.reserved,
      row.max_total_size > 0
        ? (bytes) => this.deps.repo.reserve(row.id, 0, bytes, this.now().toISOString())
        : null,
      () => slot.tooLarge(),
      () => this.fullError(row.id),
    );
    try {
      const metered = pipeline(offered.stream, meter, () => undefined);
      let size: number;
      try {
        size = await this.store(slot, metered, offered.size);
      } catch (error) {
        throw meter.failure ?? error;
      }
      return await this.endUpload({ ...slot, reserved: meter.reservedBytes }, size);
    } catch (error) {
      offered.stream.destroy();
      await this.dropUpload({ ...slot, reserved: meter.reservedBytes });
      throw error;
    }
  }

  /**
   * Writes a file's bytes where its slot points: the folder (with the creator's rights), or a new
   * file share of the creator appended to the request's bundle while still pending (invisible until
   * ready; a failure takes it out again). Its size.
   */
  private async store(slot: UploadSlot, body: Readable, expected: number | undefined): Promise<number> {
    const bundleId = slot.row.bundle_id;
    if (!bundleId) {
      const written = await this.deps.vfs.write(slot.owner, slot.at!.path, webBody(body), {
        contentType: mimeFromFilename(slot.name),
        ...(expected !== undefined ? { expected } : {}),
      });
      return written.result.size;
    }
    let appended: string | undefined;
    try {
      const share = await this.deps.shares.streamShare(
        slot.owner,
        body,
        { filename: slot.name, size: expected },
        async (file) => {
          await this.deps.bundles.appendFile(bundleId, file.id, file.filename);
          appended = file.id;
        },
      );
      return share.size;
    } catch (error) {
      if (appended) await this.deps.bundles.removeFile(bundleId, appended);
      throw error;
    }
  }

  /**
   * The checks every door makes before a byte of a file is read, and its reserved place (the form
   * route; the tus endpoint, which knows the length): the request live and opened (its password),
   * the name made safe and its type allowed, the size within the limits, a file slot and the
   * declared bytes reserved at once (exactly, under any concurrency), and a free name claimed in
   * the target folder (or the upload's subfolder). Refused: nothing is kept.
   */
  async beginUpload(token: string, offered: Omit<OfferedUpload, 'stream'>): Promise<UploadSlot> {
    const row = await this.live(token);
    if (!this.hasAccess(row, offered.access)) throw unauthenticated('upload_requests.password_required');
    const name = sanitiseName(offered.name);
    const allowed = JSON.parse(row.allowed_types) as string[];
    if (!typeAllowed(name, allowed)) {
      throw unsupportedType('upload_requests.type_not_allowed', { name, types: allowed.join(', ') });
    }
    const { limit, tooLarge: tooLargeError } = await this.fileLimit(row);
    if (offered.size !== undefined && offered.size > limit) throw tooLargeError();
    const owner = await this.ownerOf(row);
    if (!owner) throw gone('upload_requests.unavailable');

    const reserved = offered.size ?? 0;
    if (!(await this.deps.repo.reserve(row.id, 1, reserved, this.now().toISOString()))) {
      throw await this.fullError(row.id);
    }
    try {
      if (row.bundle_id) {
        const bundle = await this.deps.bundles.openById(row.bundle_id);
        const fileId = await this.claimEntry(row, `bundle:${randomUUID()}`, name, offered.clientIp);
        if (!fileId) throw conflict('upload_requests.names_exhausted', { name });
        const base = { row, owner, name, limit, tooLarge: tooLargeError, reserved, batch: null, folder: '' };
        return { ...base, fileId, at: null, bundle: bundle.slug };
      }
      const batch = row.per_upload_subfolder ? await this.batchFolder(owner, row, offered.batch) : null;
      const folder = batch ? `${row.target_path.replace(/\/+$/, '')}/${batch}` : row.target_path;
      const { fileId, at } = await this.claimName(owner, row, folder, name, offered.clientIp);
      return { row, owner, name, limit, tooLarge: tooLargeError, reserved, batch, folder, fileId, at };
    } catch (error) {
      await this.deps.repo.release(row.id, 1, reserved);
      throw error;
    }
  }

  /**
   * A file of `size` bytes is in its place: it counts, what was reserved and not used goes back
   * (without a total limit the bytes are counted now), and the owner is told.
   */
  async endUpload(slot: UploadSlot, size: number): Promise<AcceptedUpload> {
    const { row, at } = slot;
    await this.deps.repo.finishFile(slot.fileId, size);
    await this.deps.repo.release(row.id, 0, slot.reserved - size);
    const stored = at ? at.path.split('/').pop()! : slot.name;
    this.deps.notify?.({
      event: 'share.uploaded',
      share: {
        kind: 'upload-request',
        id: row.id,
        slug: row.id,
        name: row.message ?? row.target_path,
        owner_id: row.owner_id,
        page: '/admin/upload-requests',
      },
      data: { name: stored, size, ...(slot.bundle ? { bundle: slot.bundle } : { folder: slot.folder }) },
    });
    return { request_id: row.id, name: stored, size, batch: slot.batch };
  }

  /** Gives a slot up: whatever reached its name, its claim, its file slot and reserved bytes. */
  async dropUpload(slot: UploadSlot): Promise<void> {
    if (slot.at) await this.removePartial(slot.owner, slot.at);
    await this.deps.repo.dropFile(slot.fileId);
    await this.deps.repo.release(slot.row.id, 1, slot.reserved);
  }

  /** The slot of a file whose bytes a door stored itself (tus), by the ids it kept. */
  async slotOf(requestId: string, fileId: string, reserved: number): Promise<UploadSlot | undefined> {
    const row = await this.deps.repo.findById(requestId);
    const file = row ? await this.deps.repo.findFile(fileId) : undefined;
    if (!row || !file || file.request_id !== row.id) return undefined;
    const owner = await this.ownerOf(row);
    if (!owner) return undefined;
    if (row.bundle_id) {
      const bundle = await this.deps.bundles.linkOf(row.bundle_id, '');
      const limits = await this.fileLimit(row);
      const base = { row, owner, name: file.name, ...limits, reserved, batch: null, folder: '' };
      return { ...base, fileId, at: null, bundle: bundle?.slug };
    }
    const at = await this.deps.vfs.resolveWritable(owner, file.virtual_path);
    const folder = file.virtual_path.slice(0, file.virtual_path.lastIndexOf('/')) || '/';
    const batch = folder === row.target_path.replace(/\/+$/, '') ? null : folder.split('/').pop()!;
    return {
      row,
      owner,
      name: file.name,
      ...(await this.fileLimit(row)),
      reserved,
      batch,
      folder,
      fileId,
      at,
    };
  }

  /** Most bytes one file may have: the request's limit within the server's upload limit. */
  private async fileLimit(row: UploadRequestsTable): Promise<{ limit: number; tooLarge(): AppError }> {
    const serverMax = await this.deps.settings.maxUploadBytes();
    const limit = row.max_file_size > 0 ? Math.min(row.max_file_size, serverMax) : serverMax;
    return {
      limit,
      tooLarge: () => tooLarge('upload_requests.file_too_large', { limit: formatBytes(limit) }),
    };
  }

  // ---- rules --------------------------------------------------------------------------------

  /** Revoked, else expired, else active: the rule of every share (share-rules.ts), without views. */
  private state(row: UploadRequestsTable): UploadRequestInfo['state'] {
    const state = shareState({ ...row, max_views: 0, views: 0 }, this.now());
    return state === 'used_up' ? 'active' : state;
  }

  private async byToken(token: string): Promise<UploadRequestsTable> {
    const row = TOKEN_PATTERN.test(token)
      ? await this.deps.repo.findByTokenHash(this.tokenHash(token))
      : undefined;
    if (!row) throw notFound('upload_requests.not_found');
    return row;
  }

  /** A request that still takes uploads: 404 unknown, 410 revoked or expired. */
  private async live(token: string): Promise<UploadRequestsTable> {
    const row = await this.byToken(token);
    const state = this.state(row);
    if (state !== 'active') throw gone(`upload_requests.${state}`);
    // A request into a bundle its owner revoked (or that expired) takes nothing more: 410.
    if (row.bundle_id) await this.deps.bundles.openById(row.bundle_id);
    return row;
  }

  /**
   * The request's creator as they are now, or null when they are gone or (a key) no longer hold the
   * permission its target needs.
   */
  private async ownerOf(row: UploadRequestsTable): Promise<Principal | null> {
    const owner = await this.deps.principalOf(row.created_by);
    if (owner?.type === 'apikey' && !owner.permissions[permissionFor(row.bundle_id !== null)]) return null;
    return owner;
  }

  private expiry(hours: number | null | undefined): string | null {
    if (!hours) return null;
    return new Date(this.now().getTime() + hours * 3600_000).toISOString();
  }

  /** The canonical path of an existing folder `principal` may write into; 403 / 404 / 400 otherwise. */
  private async writableFolder(principal: Principal, raw: string): Promise<string> {
    const at = await this.deps.vfs.resolveMounted(principal, raw, 'write');
    const entry = await this.deps.vfs.find(at);
    if (!entry?.isDirectory) throw badRequest('upload_requests.target_not_folder');
    return at.path;
  }

  private accessToken(row: UploadRequestsTable): { access_token: string; expires_at: string } {
    const e = Math.floor(this.now().getTime() / 1000) + ACCESS_SECONDS;
    const payload = {
      r: row.id,
      ...(row.password_hash
        ? { h: stampDigest(this.deps.secretKey, ACCESS_PURPOSE, row.password_hash) }
        : {}),
      e,
    };
    return {
      access_token: signLink(this.deps.secretKey, ACCESS_PURPOSE, payload),
      expires_at: new Date(e * 1000).toISOString(),
    };
  }

  /** Whether an upload to `row` is open: no password, or an access token for it and its password now. */
  private hasAccess(row: UploadRequestsTable, access: string | undefined): boolean {
    if (!row.password_hash) return true;
    const payload = openLink(this.deps.secretKey, ACCESS_PURPOSE, access, accessPayload);
    return (
      payload !== null &&
      payload.r === row.id &&
      payload.e * 1000 > this.now().getTime() &&
      stampMatches(this.deps.secretKey, ACCESS_PURPOSE, row.password_hash, payload.h)
    );
  }

  /** Why a reservation failed, as the row says now: gone, no slot left, or no room. */
  private async fullError(id: string): Promise<AppError> {
    const row = await this.deps.repo.findById(id);
    if (!row) return notFound('upload_requests.not_found');
    const state = this.state(row);
    if (state !== 'active') return gone(`upload_requests.${state}`);
    if (row.max_files > 0 && row.files_count >= row.max_files) {
      return conflict('upload_requests.full_files', { max: row.max_files });
    }
    return tooLarge('upload_requests.full_bytes', { limit: formatBytes(row.max_total_size) });
  }

  /** The subfolder of an upload: the one an earlier file of it went to, or a new one. */
  private async batchFolder(owner: Principal, row: UploadRequestsTable, given: string | undefined) {
    const base = row.target_path.replace(/\/+$/, '');
    if (given !== undefined && BATCH_PATTERN.test(given)) {
      const at = await this.deps.vfs.resolveMounted(owner, `${base}/${given}`, 'write');
      if ((await this.deps.vfs.find(at))?.isDirectory) return given;
    }
    const stamp = this.now().toISOString().replace('T', ' ').replace(/:/g, '').slice(0, 17);
    const batch = `${stamp} ${randomString(6, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
    await this.deps.vfs.mkdir(owner, `${base}/${batch}`);
    return batch;
  }

  /**
   * A free name for `name` in `folder` (`name`, `name (1)`, …): claimed among this request's uploads
   * in the database (two racing uploads never pick the same), and not taken in storage — an
   * existing file is never overwritten.
   */
  private async claimName(
    owner: Principal,
    row: UploadRequestsTable,
    folder: string,
    name: string,
    clientIp: string | undefined,
  ): Promise<{ fileId: string; at: MountedPath }> {
    const base = folder.replace(/\/+$/, '');
    for (let n = 0; n < NAME_TRIES; n++) {
      const candidate = numbered(name, n);
      const at = await this.deps.vfs.resolveWritable(owner, `${base}/${candidate}`);
      const fileId = await this.claimEntry(row, at.path, candidate, clientIp);
      if (!fileId) continue;
      if ((await this.deps.vfs.find(at)) === null) return { fileId, at };
      await this.deps.repo.dropFile(fileId);
    }
    throw conflict('upload_requests.names_exhausted', { name });
  }

  /** A file's row among the request's (`uploading`), at `path`; undefined when that path is taken. */
  private async claimEntry(
    row: UploadRequestsTable,
    path: string,
    name: string,
    clientIp: string | undefined,
  ): Promise<string | undefined> {
    const fileId = randomUUID();
    const claimed = await this.deps.repo.claimPath({
      id: fileId,
      request_id: row.id,
      name,
      virtual_path: path,
      size: 0,
      uploader_hash: clientIp ? hmacHex(this.deps.secretKey, `uploader:${clientIp}`) : null,
      created_at: this.now().toISOString(),
      status: 'uploading',
    });
    return claimed ? fileId : undefined;
  }

  /** Removes what a failed upload may have left at the name it claimed (it was free before). */
  private async removePartial(owner: Principal, at: MountedPath): Promise<void> {
    try {
      if (await this.deps.vfs.find(at)) await this.deps.vfs.remove(owner, at.path);
    } catch {
      // Nothing was there, or the storage is away: the janitors of the storage clean up.
    }
  }
}

/** `allowed_types` in canonical form, each once; 400 naming the first entry that is neither kind. */
function canonicalTypes(raw: readonly string[]): string[] {
  const out = new Set<string>();
  for (const entry of raw) {
    const type = canonicalType(entry);
    if (type === null) {
      throw invalidFields(
        'common.validation',
        { allowed_types: 'validation.allowed_type_invalid' },
        { field: 'allowed_types' },
      );
    }
    out.add(type);
  }
  return [...out];
}
