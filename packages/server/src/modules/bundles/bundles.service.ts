/**
 * Bundles (docs/api.md "Bundles"): one link for several items — file shares and pastes of the
 * creator, and files of the mounts read with the creator's rights.
 *
 * Views count visits, not requests: the public info (or the password check of a protected bundle)
 * counts one visit and hands out a visit token (files.token.ts, signed for `bundle:<id>` and the
 * password hash, so a new password retires it); every link in that answer carries it, and requests
 * with it count nothing more. A byte request without a token (a zip link shared with its password)
 * counts one visit itself. The count is one conditional UPDATE (bundles.repository.ts), so exactly
 * `max_views` visits get through under any concurrency.
 *
 * Items are read as they are now: an item share that expired, was used up or deleted, a paste gone,
 * or a mount file the creator no longer reaches (or that is gone) drops out of the bundle. Reading
 * an item through its bundle never counts the item share's own views.
 */
import {
  BUNDLE_MAX_ITEMS,
  type BundleDetail,
  type BundleItemInput,
  type BundleItemView,
  type BundleState,
  type BundleSummary,
  type BundleView,
  creatorId,
  mayManage,
  mimeFromFilename,
  type Principal,
  userIdOf,
} from '@cubby/shared';
import { randomUUID } from 'node:crypto';
import type { BundleItemKind, BundleItemsTable, BundlesTable, FilesTable } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, gone, notFound, unauthenticated } from '../../errors/app-error.ts';
import type { AttemptLimiter } from '../../http/rate-limiter.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { type MountedPath, nameOf, type Vfs } from '../../vfs/vfs.ts';
import { signFileToken, verifyFileToken } from '../files/files.token.ts';
import {
  checkShareCredentials,
  checkSharePassword,
  managedShares,
  randomSlug,
  shareState,
} from '../shares/share-rules.ts';
import { policedChanges, type SharePolicySource } from '../shares/share-policy.ts';
import type { BundlesRepository, PasteMeta } from './bundles.repository.ts';

/** Names made unique, case-insensitively, in order: `a.txt`, `a (2).txt`, `a (3).txt`. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** An item as it can be read now. */
export type LiveItem = {
  position: number;
  /** Unique in the bundle. */
  name: string;
  size: number;
  type: string;
} & (
  { kind: 'file'; row: FilesTable } | { kind: 'paste'; row: PasteMeta } | { kind: 'mount'; at: MountedPath }
);

export interface BundleAccess {
  row: BundlesTable;
  /** Whether the request brought a valid visit token (its visit was counted). */
  counted: boolean;
}

export interface AccessRequest {
  token?: string | undefined;
  password?: string | undefined;
  clientIp: string;
}

export interface BundleChanges {
  items?: BundleItemInput[] | undefined;
  title?: string | null | undefined;
  password?: string | null | false | undefined;
  expires_in?: number | undefined;
  max_views?: number | undefined;
}

const PERMISSION: Record<BundleItemInput['type'], 'file' | 'text' | 'mount'> = {
  file: 'file',
  paste: 'text',
  path: 'mount',
};

export const bundleUrl = (origin: string, slug: string) => `${origin}/bundle/${encodeURIComponent(slug)}`;

export class BundlesService {
  constructor(
    readonly repo: BundlesRepository,
    private readonly deps: {
      vfs: Vfs;
      clock: Clock;
      limiter: AttemptLimiter;
      secretKey: string;
      /** The share policy (modules/shares/share-policy.ts). */
      settings: SharePolicySource;
      /** The principal behind a `created_by` as it is now (a key looked up again), or null when gone. */
      creator: (createdBy: string) => Promise<Principal | null>;
    },
  ) {}

  // ---- management -----------------------------------------------------------------------------

  async create(
    principal: Principal,
    input: BundleChanges & { items: BundleItemInput[] },
    origin: string,
  ): Promise<{ id: string; slug: string; url: string }> {
    if (principal.type === 'apikey' && !principal.permissions.file && !principal.permissions.text) {
      throw forbidden('auth.permission_required', { permission: 'file' });
    }
    const now = this.deps.clock.now();
    const id = randomUUID();
    const items = await this.itemRows(principal, id, input.items);
    const createdBy = creatorId(principal);
    const policed = await this.policed(
      {
        password_hash: input.password ? await hashPassword(input.password) : null,
        ...(input.expires_in === undefined ? {} : { expires_at: expiryFrom(input.expires_in, now) }),
        ...(input.max_views === undefined ? {} : { max_views: input.max_views }),
      },
      { createdBy, mode: 'create', items },
      now,
    );
    const slug = await randomSlug((s) => this.repo.slugExists(s), 'bundles.slug_exhausted');
    const row: BundlesTable = {
      id,
      slug,
      title: input.title ?? null,
      password_hash: policed.password_hash,
      expires_at: policed.expires_at ?? null,
      max_views: policed.max_views ?? 0,
      views: 0,
      revoked_at: null,
      created_by: createdBy,
      owner_id: userIdOf(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await this.repo.insert(row, items.rows);
    return { id, slug, url: bundleUrl(origin, slug) };
  }

  async list(
    principal: Principal,
    options: { offset: number; limit: number },
    origin: string,
  ): Promise<{ bundles: BundleSummary[]; total: number }> {
    const { rows, total } = await this.repo.list({ ...options, whose: managedShares(principal) });
    const now = this.deps.clock.now();
    return { bundles: rows.map((r) => this.summary(r, r.item_count, now, origin)), total };
  }

  async get(principal: Principal, slug: string, origin: string): Promise<BundleDetail> {
    const row = await this.owned(principal, slug);
    const items = await this.repo.items(row.id);
    // What each item is called in a PUT's `items` (a share's slug, a mount path), so an editor can send
    // the list back reordered or shortened (docs/api.md "Bundles"); null for a share that is gone.
    const ids = (kind: BundleItemKind) => items.filter((i) => i.kind === kind).map((i) => i.ref);
    const slugs = new Map(
      [...(await this.repo.findFiles(ids('file'))), ...(await this.repo.findPastes(ids('paste')))].map(
        (share) => [share.id, share.slug],
      ),
    );
    return {
      ...this.summary(row, items.length, this.deps.clock.now(), origin),
      items: items.map(({ position, kind, ref, name }) => ({
        position,
        kind,
        ref,
        name,
        type: kind === 'mount' ? 'path' : kind,
        value: kind === 'mount' ? ref : (slugs.get(ref) ?? null),
      })),
    };
  }

  async update(
    principal: Principal,
    slug: string,
    input: BundleChanges,
    origin: string,
  ): Promise<BundleDetail> {
    const row = await this.owned(principal, slug);
    if (row.revoked_at !== null) throw gone('bundles.revoked');
    const now = this.deps.clock.now();
    const edits: Partial<BundlesTable> = { updated_at: now.toISOString() };
    if (input.title !== undefined) edits.title = input.title;
    if (input.expires_in !== undefined) edits.expires_at = expiryFrom(input.expires_in, now);
    if (input.max_views !== undefined) {
      edits.max_views = input.max_views;
      // A new limit the bundle has already reached would use it up at once: start counting again.
      if (input.max_views > 0 && row.views >= input.max_views) edits.views = 0;
    }
    if (input.password) edits.password_hash = await hashPassword(input.password);
    else if (input.password !== undefined) edits.password_hash = null;
    const items = input.items ? await this.itemRows(principal, row.id, input.items) : undefined;
    const changes = await this.policed(edits, { createdBy: row.created_by, mode: 'update', items }, now);
    await this.repo.update(row.id, changes, items?.rows);
    return this.get(principal, slug, origin);
  }

  /** Revokes: the public routes answer 410 from the next request on. Revoking again changes nothing. */
  async revoke(principal: Principal, slug: string): Promise<{ slug: string; revoked_at: string }> {
    const row = await this.owned(principal, slug);
    const revokedAt = row.revoked_at ?? this.deps.clock.now().toISOString();
    if (row.revoked_at === null)
      await this.repo.update(row.id, { revoked_at: revokedAt, updated_at: revokedAt });
    return { slug: row.slug, revoked_at: revokedAt };
  }

  // ---- files appended by upload doors (docs/api.md "Upload requests", "Resumable uploads (tus)") ----

  /**
   * A bundle `principal` manages that still takes files: 404 unknown or someone else's (as `get`
   * answers), 410 revoked or expired.
   */
  async ownedOpen(principal: Principal, slug: string): Promise<BundlesTable> {
    const row = await this.owned(principal, slug);
    return this.stillOpen(row);
  }

  /** The bundle of `id` while it takes files: 404 gone, 410 revoked or expired. */
  async openById(id: string): Promise<BundlesTable> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound('bundles.not_found');
    return this.stillOpen(row);
  }

  /** The link of the bundle of `id`, or null when it is gone. */
  async linkOf(id: string, origin: string): Promise<{ slug: string; url: string } | null> {
    const row = await this.repo.findById(id);
    return row ? { slug: row.slug, url: bundleUrl(origin, row.slug) } : null;
  }

  /**
   * Appends a file share (by id, pending or ready: public routes show only ready ones) as the last
   * item, once (appending it again changes nothing). The one way upload doors add files, so the
   * item limit holds exactly however many race (BundlesRepository.append): 409 when full, 410 when
   * the bundle was revoked or expired meanwhile.
   */
  async appendFile(bundleId: string, fileId: string, name: string): Promise<void> {
    const now = this.deps.clock.now();
    const added = await this.repo.append(
      { bundle_id: bundleId, kind: 'file', ref: fileId, name },
      BUNDLE_MAX_ITEMS,
      now.toISOString(),
    );
    if (added === 'full') throw conflict('bundles.full', { max: BUNDLE_MAX_ITEMS });
    if (added === 'closed') await this.openById(bundleId);
  }

  /** Takes out a file appended by an upload that then failed. */
  removeFile(bundleId: string, fileId: string): Promise<void> {
    return this.repo.removeItem(bundleId, 'file', fileId);
  }

  private stillOpen(row: BundlesTable): BundlesTable {
    const state = shareState(row, this.deps.clock.now());
    if (state === 'revoked' || state === 'expired') refuse(state);
    return row;
  }

  // ---- public ---------------------------------------------------------------------------------

  /**
   * GET /api/public/bundles/:slug: a protected bundle shows no items (and counts nothing) until its
   * password is checked; an open one counts this visit and answers its items with a visit token. A
   * valid token (a reload during the visit) counts nothing.
   */
  async info(slug: string, token: string | undefined, origin: string): Promise<BundleView> {
    const { row, check } = await this.opened(slug, token);
    if (check?.ok) return this.view(row, origin, token!);
    if (row.password_hash) return this.lockedView(row);
    const counted = await this.countVisit(row);
    return this.view(counted, origin, this.token(row));
  }

  /** POST …/verify: the password (under the share-password limits), then one visit as `info`. */
  async verify(
    slug: string,
    password: string | undefined,
    clientIp: string,
    origin: string,
  ): Promise<{ view: BundleView; passwordNeeded: boolean }> {
    if (!password) throw badRequest('bundles.password_missing');
    const row = await this.live(slug);
    if (row.password_hash) {
      await checkSharePassword(
        this.deps.limiter,
        { share: `bundle:${row.id}`, clientIp },
        row.password_hash,
        password,
        () => unauthenticated('bundles.wrong_password'),
      );
    }
    const counted = await this.countVisit(row);
    return {
      view: await this.view(counted, origin, this.token(row)),
      passwordNeeded: row.password_hash !== null,
    };
  }

  /**
   * May this request have bytes of the bundle? 404 unknown; 410 revoked or expired (or used up,
   * unless its token's visit was counted); a protected bundle wants a valid token or the password
   * (401 with neither, 403 when wrong or forged, 429 after too many guesses).
   */
  async access(slug: string, request: AccessRequest): Promise<BundleAccess> {
    const { row, check } = await this.opened(slug, request.token);
    if (check?.ok) return { row, counted: true };
    if (row.password_hash) {
      await checkShareCredentials(
        this.deps.limiter,
        { share: `bundle:${row.id}`, clientIp: request.clientIp },
        row.password_hash,
        { check: check && !check.ok ? check : null, password: request.password },
        'bundles',
      );
    } else if (check && !check.ok && check.reason === 'invalid') {
      // An open bundle needs no token, but a forged one is still refused.
      throw forbidden('bundles.invalid_token');
    }
    return { row, counted: false };
  }

  /** Counts the visit of a byte request that brought no token; 410 when the bundle went meanwhile. */
  async countVisit(row: BundlesTable): Promise<BundlesTable> {
    if (await this.repo.countVisit(row.id, this.deps.clock.now().toISOString())) {
      return { ...row, views: row.views + 1 };
    }
    const fresh = await this.repo.findBySlug(row.slug);
    const state = fresh ? shareState(fresh, this.deps.clock.now()) : 'revoked';
    return refuse(state === 'active' ? 'used_up' : state);
  }

  /** Every item that can be read now, in order, named uniquely. */
  async liveItems(row: BundlesTable): Promise<LiveItem[]> {
    const items = await this.repo.items(row.id);
    const names = uniqueNames(items.map((i) => i.name));
    const ids = (kind: BundleItemKind) => items.filter((i) => i.kind === kind).map((i) => i.ref);
    const now = this.deps.clock.now();
    const files = new Map((await this.repo.findFiles(ids('file'))).map((f) => [f.id, f]));
    const pastes = new Map((await this.repo.findPastes(ids('paste'))).map((p) => [p.id, p]));
    const creator =
      ids('mount').length > 0 && row.created_by ? await this.deps.creator(row.created_by) : null;
    const live: LiveItem[] = [];
    for (const [index, item] of items.entries()) {
      const name = names[index]!;
      const base = { position: item.position, name };
      if (item.kind === 'file') {
        const file = files.get(item.ref);
        if (!file || file.status !== 'ready' || shareState(file, now) !== 'active') continue;
        live.push({ ...base, kind: 'file', row: file, size: file.size, type: mimeFromFilename(name) });
      } else if (item.kind === 'paste') {
        const paste = pastes.get(item.ref);
        if (!paste || shareState(paste, now) !== 'active') continue;
        live.push({ ...base, kind: 'paste', row: paste, size: Number(paste.size), type: 'text/plain' });
      } else if (creator) {
        const found = await this.mountFile(creator, item.ref);
        if (found)
          live.push({ ...base, kind: 'mount', at: found.at, size: found.size, type: mimeFromFilename(name) });
      }
    }
    return live;
  }

  /** A paste item's text as it is now; 404 when the paste went meanwhile. */
  async pasteText(id: string): Promise<string> {
    const text = await this.repo.pasteContent(id);
    if (text === undefined) throw notFound('bundles.item_not_found');
    return text;
  }

  /** One item that can be read now; 404 when there is none at `position`. */
  async liveItem(row: BundlesTable, position: number): Promise<LiveItem> {
    const found = (await this.liveItems(row)).find((i) => i.position === position);
    if (!found) throw notFound('bundles.item_not_found');
    return found;
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** The rows of `inputs`, each checked for `principal`: their own shares (an admin's: any), paths they may read. */
  private async itemRows(
    principal: Principal,
    bundleId: string,
    inputs: BundleItemInput[],
  ): Promise<{ rows: BundleItemsTable[]; bytes: number }> {
    if (principal.type === 'apikey') {
      for (const input of inputs) {
        const permission = PERMISSION[input.type];
        if (!principal.permissions[permission])
          throw forbidden('bundles.permission_required', { permission });
      }
    }
    const slugs = (type: BundleItemInput['type']) =>
      inputs.filter((i) => i.type === type).map((i) => i.value);
    const files = new Map((await this.repo.findFilesBySlug(slugs('file'))).map((f) => [f.slug, f]));
    const pastes = new Map((await this.repo.findPastesBySlug(slugs('paste'))).map((p) => [p.slug, p]));
    const now = this.deps.clock.now();
    const rows: BundleItemsTable[] = [];
    // The bytes of its file items, for the share policy's largest share.
    let bytes = 0;
    for (const [position, input] of inputs.entries()) {
      const item = { item: input.value };
      const at = { bundle_id: bundleId, position };
      if (input.type === 'path') {
        const path = this.deps.vfs.target(input.value).path;
        // 403 when the path is outside the principal's reach, 404 when nothing is there.
        const { entry } = await this.deps.vfs.stat(principal, path);
        if (entry.isDirectory) throw badRequest('bundles.source_not_file', item);
        bytes += entry.size;
        rows.push({ ...at, kind: 'mount', ref: path, name: nameOf(path) });
        continue;
      }
      const share = input.type === 'file' ? files.get(input.value) : pastes.get(input.value);
      if (!share || ('status' in share && share.status !== 'ready'))
        throw notFound('bundles.source_not_found', item);
      if (!mayManage(principal, share)) throw forbidden('bundles.source_not_yours', item);
      if (shareState(share, now) !== 'active') throw badRequest('bundles.source_unavailable', item);
      if ('filename' in share) bytes += share.size;
      rows.push(
        'filename' in share
          ? { ...at, kind: 'file', ref: share.id, name: share.filename }
          : {
              ...at,
              kind: 'paste',
              ref: share.id,
              name: `${share.slug}.${share.format === 'markdown' ? 'md' : 'txt'}`,
            },
      );
    }
    return { rows, bytes };
  }

  /** The share policy on a bundle's settings and its items (modules/shares/share-policy.ts). */
  private policed<T extends Partial<BundlesTable>>(
    changes: T,
    request: {
      createdBy: string | null;
      mode: 'create' | 'update';
      items?: { rows: BundleItemsTable[]; bytes: number };
    },
    now: Date,
  ): Promise<T> {
    const { items, ...rest } = request;
    return policedChanges(
      this.deps.settings,
      changes,
      {
        ...rest,
        size: items?.bytes,
        filenames: items?.rows.filter((r) => r.kind !== 'paste').map((r) => r.name),
      },
      now,
    );
  }

  /** A mount file the creator reaches now, or null (outside their reach, gone, a folder, storage down). */
  private async mountFile(
    creator: Principal,
    path: string,
  ): Promise<{ at: MountedPath; size: number } | null> {
    if (!this.deps.vfs.allowed(creator, path, 'read')) return null;
    try {
      const { at, entry } = await this.deps.vfs.stat(creator, path);
      return entry.isDirectory ? null : { at, size: entry.size };
    } catch {
      return null;
    }
  }

  private async view(row: BundlesTable, origin: string, token: string): Promise<BundleView> {
    const base = `${origin}/api/public/bundles/${encodeURIComponent(row.slug)}`;
    const t = `?token=${encodeURIComponent(token)}`;
    const items = (await this.liveItems(row)).map((item): BundleItemView => ({
      n: item.position,
      kind: item.kind,
      name: item.name,
      size: item.size,
      type: item.type,
      ...(item.kind === 'paste' ? { format: item.row.format } : {}),
      preview_url: `${base}/items/${item.position}${t}`,
      download_url: `${base}/items/${item.position}/download${t}`,
    }));
    return {
      ...this.lockedView(row),
      requires_password: false,
      items,
      total_size: items.reduce((sum, i) => sum + i.size, 0),
      zip_url: `${base}/zip${t}`,
      token,
    };
  }

  private lockedView(row: BundlesTable): BundleView {
    return {
      slug: row.slug,
      title: row.title,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: row.views,
      has_password: row.password_hash !== null,
      requires_password: row.password_hash !== null,
      created_at: row.created_at,
    };
  }

  private summary(row: BundlesTable, itemCount: number, now: Date, origin: string): BundleSummary {
    return {
      id: row.id,
      slug: row.slug,
      url: bundleUrl(origin, row.slug),
      title: row.title,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: row.views,
      state: shareState(row, now),
      item_count: itemCount,
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
      revoked_at: row.revoked_at,
    };
  }

  private token(row: BundlesTable): string {
    return signFileToken(this.deps.secretKey, tokenSubject(row), this.deps.clock.now());
  }

  /**
   * The bundle and the check of the request's token: 404 unknown; 410 revoked or expired, or used up
   * unless the token's visit was counted already.
   */
  private async opened(slug: string, token: string | undefined) {
    const row = await this.repo.findBySlug(slug);
    if (!row) throw notFound('bundles.not_found');
    const now = this.deps.clock.now();
    const check = token ? verifyFileToken(this.deps.secretKey, tokenSubject(row), token, now) : null;
    const state = shareState(row, now);
    if (state !== 'active' && !(state === 'used_up' && check?.ok)) refuse(state);
    return { row, check };
  }

  /** A bundle that can be opened now; 404, or 410 when revoked, expired or used up. */
  private async live(slug: string): Promise<BundlesTable> {
    const row = await this.repo.findBySlug(slug);
    if (!row) throw notFound('bundles.not_found');
    const state = shareState(row, this.deps.clock.now());
    if (state !== 'active') refuse(state);
    return row;
  }

  private async owned(principal: Principal, slug: string): Promise<BundlesTable> {
    const row = await this.repo.findBySlug(slug);
    if (!row || !mayManage(principal, row)) {
      throw notFound(principal.type === 'admin' ? 'bundles.not_found' : 'bundles.not_found_or_forbidden');
    }
    return row;
  }
}

/** What a visit token is signed for: the bundle (apart from any file's id) and its password. */
const tokenSubject = (row: BundlesTable) => ({ id: `bundle:${row.id}`, password_hash: row.password_hash });

function expiryFrom(hours: number | undefined, now: Date): string | null {
  return hours ? new Date(now.getTime() + hours * 3600_000).toISOString() : null;
}

function refuse(state: Exclude<BundleState, 'active'>): never {
  throw gone(
    state === 'revoked' ? 'bundles.revoked' : state === 'expired' ? 'bundles.expired' : 'bundles.used_up',
  );
}
