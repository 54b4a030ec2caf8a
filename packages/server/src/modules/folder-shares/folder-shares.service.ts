/**
 * Folder shares (docs/api.md "Folder shares"): a read-only link to a folder of a mount, with a
 * password, expiry and view limit, revoked at once, following the folder when it moves.
 *
 * - Reaching the folder: a visitor acts as a principal whose only reach is the shared folder, read
 *   only, and every listing, file and zip goes through the vfs with it — so the vfs's rules hold for
 *   folder shares exactly as for keys (confinement to the folder, canonical paths, and whatever it
 *   hides). Paths a visitor sends are relative to the shared folder and normalised with the shared
 *   `normalizeFsPath` (no `.`/`..`); the folder is found again on every request from its storage
 *   place through the mounts that show it, so a move (folder-shares.upkeep.ts) is followed.
 * - Counting: one view per visit. The info (or the password check of a protected share) counts the
 *   visit in one conditional UPDATE (exact under any concurrency) and hands out a short-lived signed
 *   token; list, download and zip with that token count nothing — while it lives, even after the
 *   share is used up. A request without a token is a visit of its own (a curl download).
 * - Tokens are signed links (lib/signed-link.ts) naming the share and a digest of its password hash,
 *   so a new password retires every token. Revoked, expired or folder-gone shares answer 410 to
 *   every request, token or not.
 */
import {
  type FolderShareDetail,
  type FolderShareInfo,
  type FolderShareItem,
  type FolderShareListing,
  mayManage,
  normalizeFsPath,
  type Principal,
  creatorId,
  userIdOf,
} from '@cubby/shared';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FolderSharesTable, MountsTable } from '../../db/schema.ts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  gone,
  notFound,
  unauthenticated,
} from '../../errors/app-error.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { openLink, signLink, stampDigest, stampMatches } from '../../lib/signed-link.ts';
import { mountHolding } from '../../vfs/resolve.ts';
import { type Entry, type MountedPath, nameOf, type Vfs } from '../../vfs/vfs.ts';
import { FILE_TOKEN_TTL_SECONDS } from '../files/files.token.ts';
import {
  checkSharePassword,
  managedShares,
  randomSlug,
  reserveShareGuess,
  shareSettingChanges,
  type ShareSettings,
  shareState,
} from '../shares/share-rules.ts';
import { policedChanges, type SharePolicySource } from '../shares/share-policy.ts';
import type { FolderSharesRepository } from './folder-shares.repository.ts';

/** What visit tokens are signed for (lib/signed-link.ts): no other link opens as one. */
const TOKEN_PURPOSE = 'folder-share-visit';
const tokenPayload = z.object({
  /** The share's id. */
  s: z.string().min(1).max(100),
  /** A digest of its password hash when the token was made. */
  h: z.string().max(64),
  /** Expiry, Unix seconds. */
  e: z.number().int().positive(),
});

export interface FolderShareSettings extends ShareSettings {
  title?: string | null | undefined;
  /** A new link suffix; empty or null picks a new random one. */
  slug?: string | null | undefined;
}

export interface Credentials {
  token?: string | undefined;
  password?: string | undefined;
  clientIp: string;
}

/** The shared folder as a visitor reaches it: its virtual path and the principal confined to it. */
export interface OpenedShare {
  row: FolderSharesTable;
  folder: string;
  visitor: Principal;
}

export interface FolderSharesDeps {
  repo: FolderSharesRepository;
  vfs: Vfs;
  /** The mounts, to find where a storage folder shows in the tree now. */
  mounts: { list(options?: { activeOnly?: boolean }): Promise<MountsTable[]> };
  clock: Clock;
  limiter: AttemptLimiter;
  secretKey: string;
  /** The share policy (modules/shares/share-policy.ts). */
  settings: SharePolicySource;
  /** Who made a share, with their rights as they are now; null once gone (app.ts). */
  creator: (createdBy: string) => Promise<Principal | null>;
}

export class FolderSharesService {
  constructor(private readonly deps: FolderSharesDeps) {}

  private get repo() {
    return this.deps.repo;
  }

  // ---- making and managing ----------------------------------------------------------------------

  /** A new share of the folder at `at` (already checked readable by `principal`). */
  async create(
    principal: Principal,
    at: MountedPath,
    settings: FolderShareSettings,
    origin: string,
  ): Promise<FolderShareDetail> {
    const now = this.deps.clock.now();
    const slug = await this.freeSlug(settings.slug);
    const row: FolderSharesTable = {
      id: randomUUID(),
      slug,
      storage_config_id: at.config.id,
      storage_path: at.subPath,
      virtual_path: at.path,
      title: settings.title || null,
      remark: null,
      password_hash: null,
      expires_at: null,
      max_views: 0,
      views: 0,
      revoked_at: null,
      folder_gone_at: null,
      created_by: creatorId(principal),
      owner_id: userIdOf(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      ...(await policedChanges(
        this.deps.settings,
        await shareSettingChanges(settings, { views: 0 }, now),
        { createdBy: creatorId(principal), mode: 'create' },
        now,
      )),
    };
    try {
      await this.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('folder_shares.slug_taken');
      throw error;
    }
    return toDetail(row, origin, now);
  }

  /** An admin's every share, anyone else's own (docs/accounts.md). */
  async list(principal: Principal, origin: string): Promise<FolderShareDetail[]> {
    const now = this.deps.clock.now();
    const rows = await this.repo.list(managedShares(principal));
    return rows.map((row) => toDetail(row, origin, now));
  }

  async update(
    principal: Principal,
    slug: string,
    settings: FolderShareSettings,
    origin: string,
  ): Promise<FolderShareDetail> {
    const row = await this.owned(principal, slug);
    const now = this.deps.clock.now();
    const changes: Partial<FolderSharesTable> = await policedChanges(
      this.deps.settings,
      await shareSettingChanges(settings, row, now),
      { createdBy: row.created_by, mode: 'update' },
      now,
    );
    if (settings.title !== undefined) changes.title = settings.title || null;
    if (settings.slug !== undefined && settings.slug !== row.slug) {
      changes.slug = await this.freeSlug(settings.slug);
    }
    changes.updated_at = now.toISOString();
    try {
      await this.repo.update(row.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('folder_shares.slug_taken');
      throw error;
    }
    return toDetail((await this.repo.findById(row.id))!, origin, now);
  }

  /** Revokes a share: every request answers 410 from now on, tokens included. */
  async revoke(principal: Principal, slug: string, origin: string): Promise<FolderShareDetail> {
    const row = await this.owned(principal, slug);
    const now = this.deps.clock.now();
    if (row.revoked_at === null) {
      await this.repo.update(row.id, { revoked_at: now.toISOString(), updated_at: now.toISOString() });
    }
    return toDetail((await this.repo.findById(row.id))!, origin, now);
  }

  // ---- visiting -----------------------------------------------------------------------------------

  /**
   * GET /api/public/folders/:slug (and its password check, `verify`): the share's details. An
   * unprotected share, or a protected one with the right password, counts the visit and hands out
   * its token; a protected one without a password says only that it needs one.
   */
  async info(
    slug: string,
    credentials: Omit<Credentials, 'token'>,
    verify = false,
  ): Promise<FolderShareInfo> {
    if (verify && !credentials.password) throw badRequest('folder_shares.password_missing');
    const { row, folder } = await this.live(slug);
    if (row.password_hash) {
      if (!credentials.password) return toInfo(row, folder);
      await this.checkPassword(row, credentials.password, credentials.clientIp);
    }
    const counted = await this.visit(row);
    const token = this.token(counted);
    return { ...toInfo(counted, folder), token: token.token, token_expires_at: token.expiresAt };
  }

  /**
   * What list, download and zip may reach: the share live (404, 410), then the visit's token, or
   * else the password of a protected share (401, 403, 429) and a visit counted (410 used up).
   */
  async open(slug: string, credentials: Credentials): Promise<OpenedShare> {
    const opened = await this.live(slug, { usedUpOk: true });
    const { row } = opened;
    const check = credentials.token ? this.checkToken(row, credentials.token) : null;
    if (check === 'ok') return opened;
    if (row.password_hash) {
      const keys = { share: `folder:${row.id}`, clientIp: credentials.clientIp };
      if (check === 'expired') throw forbidden('folder_shares.token_expired');
      if (check === 'invalid') {
        // A forged token counts as a wrong guess.
        await reserveShareGuess(this.deps.limiter, keys);
        throw forbidden('folder_shares.invalid_token');
      }
      if (!credentials.password) throw unauthenticated('folder_shares.password_required');
      await checkSharePassword(this.deps.limiter, keys, row.password_hash, credentials.password, () =>
        forbidden('folder_shares.wrong_password'),
      );
    }
    return { ...opened, row: await this.visit(row) };
  }

  /** `rel` (relative to the shared folder) as a virtual path inside it; 400 when it is no path. */
  below(opened: OpenedShare, rel: string | undefined): string {
    const path = normalizeFsPath(rel ?? '/');
    if (path === null) throw badRequest('folder_shares.path_invalid');
    if (path === '/') return opened.folder;
    return opened.folder === '/' ? path : opened.folder + path;
  }

  /** The folder `rel` below the shared one, listed through the vfs as the visitor. */
  async listing(opened: OpenedShare, rel: string | undefined): Promise<FolderShareListing> {
    const at = this.below(opened, rel);
    const { entry } = await this.stat(opened, at);
    if (!entry.isDirectory) throw badRequest('folder_shares.not_a_folder');
    const listing = await this.deps.vfs.list(opened.visitor, at);
    const relative = at === opened.folder ? '/' : at.slice(opened.folder === '/' ? 0 : opened.folder.length);
    const items: FolderShareItem[] = listing.items.map((item) => ({
      name: item.name,
      path: relative === '/' ? `/${item.name}` : `${relative}/${item.name}`,
      isDirectory: item.isDirectory,
      size: item.size,
      modified: item.modified,
    }));
    return { path: relative, items };
  }

  /** The file `rel` below the shared folder (400 for a folder, 404 when nothing is there). */
  async file(opened: OpenedShare, rel: string | undefined): Promise<{ at: MountedPath; entry: Entry }> {
    const path = this.below(opened, rel);
    const found = await this.stat(opened, path);
    if (found.entry.isDirectory) throw badRequest('folder_shares.not_a_file');
    return found;
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private async freeSlug(wanted: string | null | undefined): Promise<string> {
    if (wanted && (await this.repo.slugExists(wanted))) throw conflict('folder_shares.slug_taken');
    return wanted || randomSlug((s) => this.repo.slugExists(s), 'folder_shares.slug_exhausted');
  }

  private async owned(principal: Principal, slug: string): Promise<FolderSharesTable> {
    const row = await this.repo.findBySlug(slug);
    if (!row || !mayManage(principal, row)) throw notFound('folder_shares.not_found_or_forbidden');
    return row;
  }

  /**
   * The share by slug, still open (404 unknown; 410 revoked, expired, folder gone, or — unless
   * `usedUpOk`, where a counted token may still read — used up), with its folder as it is now.
   */
  private async live(slug: string, options: { usedUpOk?: boolean } = {}): Promise<OpenedShare> {
    const row = await this.repo.findBySlug(slug);
    if (!row) throw notFound('folder_shares.not_found');
    refuseGone(row, this.deps.clock.now(), options.usedUpOk ?? false);
    const folder = await this.folderOf(row);
    // What its maker may no longer read is no longer shared (a key narrowed, a person disabled).
    const creator = row.created_by ? await this.deps.creator(row.created_by) : null;
    if (row.created_by && (!creator || !this.deps.vfs.allowed(creator, folder, 'read'))) {
      throw gone('folder_shares.folder_gone');
    }
    const visitor = visitorOf(row, folder);
    try {
      const entry = await this.deps.vfs.entry(await this.deps.vfs.resolveMounted(visitor, folder, 'read'));
      if (!entry.isDirectory) throw gone('folder_shares.folder_gone');
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw gone('folder_shares.folder_gone');
      throw error;
    }
    return { row, folder, visitor };
  }

  /**
   * Where the folder shows in the tree now: through a mount of its storage that holds it (the one it
   * was shared through when that still does). 410 when no active mount shows it.
   */
  private async folderOf(row: FolderSharesTable): Promise<string> {
    const mounts = await this.deps.mounts.list({ activeOnly: true });
    const paths = mounts
      .filter((m) => m.storage_config_id === row.storage_config_id)
      .map((m) => ({ mount: m, path: this.deps.vfs.virtualPath(m, row.storage_path) }))
      .filter(({ mount, path }) => mountHolding(mounts, path) === mount)
      .map(({ path }) => path);
    const path = paths.includes(row.virtual_path) ? row.virtual_path : paths[0];
    if (path === undefined) throw gone('folder_shares.folder_gone');
    return path;
  }

  /** A path below the shared folder, as the visitor: 404 when nothing is there. */
  private stat(opened: OpenedShare, path: string) {
    return this.deps.vfs.stat(opened.visitor, path).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) throw notFound('folder_shares.file_not_found');
      throw error;
    });
  }

  private async checkPassword(row: FolderSharesTable, password: string, clientIp: string): Promise<void> {
    await checkSharePassword(
      this.deps.limiter,
      { share: `folder:${row.id}`, clientIp },
      row.password_hash!,
      password,
      () => forbidden('folder_shares.wrong_password'),
    );
  }

  /** Counts one visit (one statement); 410 when the share cannot take one more. */
  private async visit(row: FolderSharesTable): Promise<FolderSharesTable> {
    const now = this.deps.clock.now();
    if (await this.repo.countVisit(row.id, now.toISOString())) return { ...row, views: row.views + 1 };
    const fresh = await this.repo.findById(row.id);
    if (!fresh) throw notFound('folder_shares.not_found');
    refuseGone(fresh, now, false);
    // Live again by now (its limit raised meanwhile): not counted, so not let in.
    throw gone('folder_shares.used_up');
  }

  private token(row: FolderSharesTable): { token: string; expiresAt: string } {
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + FILE_TOKEN_TTL_SECONDS;
    const payload: z.infer<typeof tokenPayload> = {
      s: row.id,
      h: stampDigest(this.deps.secretKey, TOKEN_PURPOSE, row.password_hash ?? ''),
      e: exp,
    };
    return {
      token: signLink(this.deps.secretKey, TOKEN_PURPOSE, payload),
      expiresAt: new Date(exp * 1000).toISOString(),
    };
  }

  private checkToken(row: FolderSharesTable, token: string): 'ok' | 'invalid' | 'expired' {
    const payload = openLink(this.deps.secretKey, TOKEN_PURPOSE, token, tokenPayload);
    if (!payload || payload.s !== row.id) return 'invalid';
    if (!stampMatches(this.deps.secretKey, TOKEN_PURPOSE, row.password_hash ?? '', payload.h))
      return 'invalid';
    if (this.deps.clock.now().getTime() >= payload.e * 1000) return 'expired';
    return 'ok';
  }
}

/** 410 for a share that cannot be opened at `now` (used up only when `usedUpOk` is false). */
function refuseGone(row: FolderSharesTable, now: Date, usedUpOk: boolean): void {
  if (row.folder_gone_at !== null) throw gone('folder_shares.folder_gone');
  const state = shareState(row, now);
  if (state === 'revoked') throw gone('folder_shares.revoked_gone');
  if (state === 'expired') throw gone('folder_shares.expired');
  if (state === 'used_up' && !usedUpOk) throw gone('folder_shares.used_up');
}

/**
 * Who a visitor is to the vfs: a principal that reaches the shared folder only, read only, with no
 * permission beyond reading the mounted storage there.
 */
function visitorOf(row: FolderSharesTable, folder: string): Principal {
  return {
    type: 'apikey',
    id: `folder-share:${row.id}`,
    name: `folder share ${row.slug}`,
    basicPath: folder,
    permissions: { text: false, file: false, mount: true },
    ownerId: row.owner_id,
    grants: [{ path: folder, write: false }],
  };
}

export function folderShareUrl(origin: string, slug: string): string {
  return `${origin}/folder/${encodeURIComponent(slug)}`;
}

function toInfo(row: FolderSharesTable, folder: string): FolderShareInfo {
  return {
    slug: row.slug,
    name: nameOf(folder) || '/',
    title: row.title,
    remark: row.remark,
    requires_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    created_at: row.created_at,
  };
}

function toDetail(row: FolderSharesTable, origin: string, now: Date): FolderShareDetail {
  return {
    id: row.id,
    slug: row.slug,
    url: folderShareUrl(origin, row.slug),
    path: row.virtual_path,
    title: row.title,
    remark: row.remark,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    revoked_at: row.revoked_at,
    state: shareState(row, now),
    created_by: row.created_by,
    owner_id: row.owner_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
