/**
 * The virtual file system: one tree over every mount (docs/architecture.md, "The storage core").
 * The fs routes, WebDAV, the copy engine and the explorer all go through it for its rules: paths and
 * confinement, name limits, locks, change events and the listings cache.
 *
 * - A virtual path (`/photos/2026/a.jpg`) resolves to the mount whose path is its longest prefix
 *   (whole segments; a mount at `/` takes everything no other mount takes) and the driver path below
 *   it. Paths above the mounts are virtual directories that list the next segment of each mount.
 * - Paths are canonical (shared `normalizeFsPath`: already decoded once by the URL or JSON they came
 *   in, `%` literal, no `.`/`..`), and an API key is checked against its base path before anything
 *   touches storage: it may navigate the directories on the way to its base path (seeing only that
 *   way) and read and write inside it.
 * - Listings are complete (every page of the driver) and sorted folders first, then by name. They
 *   are cached per mount for the mount's `cache_ttl` (0 = no cache); every write through the vfs,
 *   and every share upload into a mounted storage config, invalidates the folders it changed (see
 *   {@link Vfs.changed}) — on this instance at once, on the others through the cache bus
 *   (lib/cache-bus.ts). While the bus may miss notes (degraded), a listing is kept at most
 *   DEGRADED_TTL_MS. A listing asked for with `refresh` is read from the storage and replaces the
 *   cached one (for changes made behind the server's back).
 */
import type { FsListItem, FsListingAnswer } from '@cubby/shared';
import {
  bareEtag,
  type CacheCounters,
  isNormalizedPathWithin,
  type MountCacheCounters,
  normalizeFsPath,
  normalizePath,
  type Principal,
} from '@cubby/shared';
import type { MountsTable } from '../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../errors/app-error.ts';
import { asStorageAnswer } from './storage-answers.ts';
import { type CacheBus, type CacheNote, DEGRADED_TTL_MS } from '../lib/cache-bus.ts';
import type { Clock } from '../lib/clock.ts';
import type { MountsRepository } from '../modules/mounts/mounts.repository.ts';
import type { DriverPool, StorageConfigRecord } from './driver-pool.ts';
import { ChangeFeed, type Place, type StorageChange } from './changes.ts';
import { type LockStore, locksCheckedHere, unansweredLock, type WriteTarget } from './locks.ts';
import { NO_RESERVATION, type Reservation, StorageFullError, type StorageQuota } from './quota.ts';
import { type Entry, isStorageError, type StorageDriver } from '../storage/driver.ts';
import { joinPath, parentOf, pathSegments } from '../storage/driver-path.ts';

/** What a caller wants to do at a path: see the way there, read what is there, or change it. */
export type FsAccess = 'navigate' | 'read' | 'write';

/** A canonical virtual path and whether the client marked it as a directory (trailing `/`). */
export interface FsTarget {
  path: string;
  isDirectory: boolean;
}

export interface MountedPath {
  kind: 'mount';
  /** The canonical virtual path. */
  path: string;
  mount: MountsTable;
  config: StorageConfigRecord;
  driver: StorageDriver;
  /** The driver path inside the storage config ("/" is the mount's root). */
  subPath: string;
}

export type ResolvedPath = { kind: 'virtual'; path: string } | MountedPath;

/** A listing entry and a listing as the fs API answers them (CloudPaste's fields; packages/shared). */
export type FsItem = FsListItem;
export type FsListing = FsListingAnswer;

export type CacheStats = CacheCounters;

/**
 * How a listing uses the cache: `use` answers from it while fresh; `refresh` reads the storage and
 * stores what it read (the explorer's Refresh, CloudPaste's `refresh=true`); `bypass` reads the
 * storage and leaves the cache alone (a zip download walking a whole tree).
 */
export type ListingCache = 'use' | 'refresh' | 'bypass';

/** A driver error as the fs answer it deserves (vfs/storage-answers.ts); anything else as it is. */
export function fsStorageFailure(error: unknown): unknown {
  return asStorageAnswer(error);
}

/** Runs a driver call, turning its StorageErrors into answers. */
export async function storageOp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fsStorageFailure(error);
  }
}

const NO_TOKENS: ReadonlySet<string> = new Set();

/** The longest name (one path segment) a write may create: what local file systems take. */
export const MAX_NAME_BYTES = 255;
/** The longest path inside a storage a write may create (S3 keys are at most 1,024 bytes). */
export const MAX_PATH_BYTES = 1000;

/** Most listings kept at once; past it the expired go first, then the least recently used. */
const CACHE_MAX_ENTRIES = 1000;
const CACHE_PRUNE_SHARE = 0.2;
/** `last_used` of a mount is written at most this often. */
const TOUCH_EVERY_MS = 60_000;

interface CachedListing {
  items: FsItem[];
  storedAt: number;
  expiresAt: number;
  usedAt: number;
  /** `items` as JSON bytes, made the first time a listing is answered whole from the cache. */
  json?: Uint8Array<ArrayBuffer>;
}

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** Folders first, then by name as people read it (numbers in order, case ignored). */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byKindThenName = (a: FsItem, b: FsItem) =>
  a.isDirectory === b.isDirectory
    ? collator.compare(a.name, b.name) || (a.name < b.name ? -1 : 1)
    : a.isDirectory
      ? -1
      : 1;

export interface VfsDeps {
  mounts: MountsRepository;
  /** The storage configs and their drivers (vfs/driver-pool.ts). */
  storageConfigs: Pick<DriverPool, 'find' | 'driver'>;
  clock: Clock;
  /** Tells the other instances what this one forgot (and what they changed, through {@link applyNote}). */
  bus?: CacheBus;
  /** WebDAV's locks, which bind every write (vfs/locks.ts). */
  locks?: LockStore;
  /** Each storage config's quota, which every write reserves from (vfs/quota.ts). */
  quota?: StorageQuota;
}

export class Vfs {
  private readonly cache = new Map<string, CachedListing>();
  private readonly stats = { hits: 0, misses: 0, expired: 0, invalidations: 0, pruned: 0 };
  /** Hits and misses per mount id, for the dashboard. */
  private readonly mountStats = new Map<string, { hits: number; misses: number }>();
  private readonly touched = new Map<string, number>();
  /**
   * Counts invalidations: a listing read from storage while something was forgotten is not kept
   * (it may have been read before the change it missed).
   */
  private generation = 0;

  /**
   * Every change to storage, from every door (vfs/changes.ts). The listings cache is its first
   * listener; app.ts adds the rest (file shares follow their files).
   */
  readonly changes = new ChangeFeed();

  constructor(private readonly deps: VfsDeps) {
    this.changes.subscribe((change) => this.forgetChanged(change));
  }

  /** Tells every listener of a change (the caller made it); resolves once all have followed it. */
  report(change: StorageChange): Promise<void> {
    return this.changes.publish(change);
  }

  // ---- paths and permissions ------------------------------------------------------------------

  /** The canonical form of a client path (400 when it has none); a trailing `/` marks a directory. */
  target(raw: unknown): FsTarget {
    if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('fs.path_required');
    const path = normalizeFsPath(raw);
    if (path === null) throw badRequest('fs.path_invalid');
    return { path, isDirectory: raw.endsWith('/') || path === '/' };
  }

  /** The base path an API key is confined to ("/" for an admin), in canonical form. */
  private base(principal: Principal): string {
    if (principal.type === 'admin') return '/';
    const base = normalizeFsPath(principal.basicPath);
    // A stored base path that no longer normalises confines to nothing, never to everything.
    if (base === null) throw forbidden('fs.path_forbidden');
    return base;
  }

  /**
   * Whether `principal` may `access` `path`: inside its base path anything; on the way to it
   * (an ancestor) only navigation.
   */
  allowed(principal: Principal, path: string, access: FsAccess): boolean {
    const base = this.base(principal);
    if (isNormalizedPathWithin(base, path)) return true;
    return access === 'navigate' && isNormalizedPathWithin(path, base);
  }

  /** 403 unless {@link allowed}. */
  check(principal: Principal, path: string, access: FsAccess): void {
    if (!this.allowed(principal, path, access)) throw forbidden('fs.path_forbidden');
  }

  /** The active mounts a principal sees: all for an admin; for a key those on the way to or inside its base path. */
  async visibleMounts(principal: Principal): Promise<MountsTable[]> {
    const mounts = await this.deps.mounts.list({ activeOnly: true });
    return mounts.filter((m) => this.mountVisible(principal, m.mount_path));
  }

  /**
   * Whether a principal sees a mount at `mountPath` (active or not): an admin every one; a key one
   * inside its base path or one its base path lies in (the way there).
   */
  mountVisible(principal: Principal, mountPath: string): boolean {
    if (principal.type === 'admin') return true;
    const base = this.base(principal);
    return isNormalizedPathWithin(base, mountPath) || isNormalizedPathWithin(mountPath, base);
  }

  /** The mount holding `path` (longest mount path that equals it or is an ancestor), if any. */
  private mountOf(mounts: MountsTable[], path: string): MountsTable | undefined {
    let best: MountsTable | undefined;
    for (const m of mounts) {
      if (
        isNormalizedPathWithin(m.mount_path, path) &&
        (!best || m.mount_path.length > best.mount_path.length)
      ) {
        best = m;
      }
    }
    return best;
  }

  /**
   * Resolves a client path after checking `access` for `principal` (nothing touches storage before
   * that). Above every mount it is virtual; inside one it names the driver and the driver path.
   */
  async resolve(principal: Principal, raw: unknown, access: FsAccess): Promise<ResolvedPath> {
    const { path } = this.target(raw);
    this.check(principal, path, access);
    const mount = this.mountOf(await this.visibleMounts(principal), path);
    if (!mount) return { kind: 'virtual', path };
    return this.mounted(mount, path);
  }

  /** Like {@link resolve}, but the path must lie inside a mount: 404 above the mounts (403 at `/`). */
  async resolveMounted(principal: Principal, raw: unknown, access: FsAccess): Promise<MountedPath> {
    const resolved = await this.resolve(principal, raw, access);
    if (resolved.kind === 'virtual') {
      throw resolved.path === '/' ? forbidden('fs.root_forbidden') : notFound('fs.mount_not_found');
    }
    return resolved;
  }

  private async mounted(mount: MountsTable, path: string): Promise<MountedPath> {
    const config = await this.deps.storageConfigs.find(mount.storage_config_id);
    if (!config) throw notFound('fs.storage_not_found');
    const driver = await this.deps.storageConfigs.driver(config);
    const subPath = mount.mount_path === '/' ? path : path.slice(mount.mount_path.length) || '/';
    return { kind: 'mount', path, mount, config, driver, subPath };
  }

  /**
   * The storage folder a share upload by `principal` into storage config `configId` goes to, for
   * the folder the client named (a storage path; a relative one lies below the caller's own
   * folder there). An admin's own folder is the storage's root. A key's base path is a virtual
   * path: where mounts show this storage, the key's folder in it is its base path seen through the
   * mount that holds it (the longest), and the upload must land inside that folder — what it
   * writes then appears inside the key's folder of the tree, never beside it; a storage that
   * mounts show but none holds the key's base path is refused. A storage no mount shows is no part
   * of the tree the base path confines: there the base path is taken as a storage path.
   */
  async shareUploadFolder(principal: Principal, configId: string, raw: string | undefined): Promise<string> {
    const base = this.base(principal);
    let own = base;
    if (base !== '/') {
      const active = await this.deps.mounts.list({ activeOnly: true });
      const showing = active.filter((m) => m.storage_config_id === configId);
      if (showing.length > 0) {
        const holder = showing
          .filter((m) => isNormalizedPathWithin(m.mount_path, base))
          .sort((a, b) => b.mount_path.length - a.mount_path.length)[0];
        if (!holder) throw forbidden('uploads.storage_outside_base', { base });
        own = holder.mount_path === '/' ? base : base.slice(holder.mount_path.length) || '/';
      }
    }
    const wanted = raw?.trim() ?? '';
    const folder = wanted === '' ? own : normalizePath(wanted.startsWith('/') ? wanted : `${own}/${wanted}`);
    if (folder === null) throw badRequest('uploads.path_invalid');
    if (!isNormalizedPathWithin(own, folder)) throw forbidden('uploads.path_forbidden', { base });
    // A new file in a folder a WebDAV client locked (or below a folder it locked whole) waits too.
    const showing = (await this.deps.mounts.list({ activeOnly: true })).filter(
      (m) => m.storage_config_id === configId,
    );
    await this.assertUnlocked(
      principal,
      showing.map((m) => ({ path: this.virtualPath(m, folder) })),
    );
    return folder;
  }

  /** The virtual path of a driver path inside a mount. */
  virtualPath(mount: Pick<MountsTable, 'mount_path'>, subPath: string): string {
    if (mount.mount_path === '/') return subPath;
    return subPath === '/' ? mount.mount_path : mount.mount_path + subPath;
  }

  // ---- reading --------------------------------------------------------------------------------

  /** A directory listing: a mount's folder (complete, cached), plus virtual entries for mounts below it. */
  async list(principal: Principal, raw: unknown, options: { cache?: ListingCache } = {}): Promise<FsListing> {
    const { path } = this.target(raw);
    this.check(principal, path, 'navigate');
    const mounts = await this.visibleMounts(principal);
    const mount = this.mountOf(mounts, path);
    const insideBase = this.allowed(principal, path, 'read');
    let items: FsItem[] = [];
    let entry: CachedListing | undefined;
    let listing: Partial<FsListing> = {};
    const base = this.base(principal);
    if (mount) {
      const mounted = await this.mounted(mount, path);
      // On the way to its base path a key sees only that way, not the folder's other names.
      if (insideBase) {
        ({ items, entry } = await this.mountItems(mounted, path === base, options.cache ?? 'use'));
      }
      listing = { mount_id: mount.id, storage_type: storageType(mounted.config) };
      this.touch(mount);
    } else if (mounts.length === 0 && path !== '/') {
      throw notFound('fs.mount_not_found');
    }
    // The way on: the next segment of each mount below this path, and of the key's base path when
    // this is an ancestor of it (shown as folders unless a real folder has that name).
    const names = new Set(items.filter((i) => i.isDirectory).map((i) => i.name));
    const fromStorage = items.length;
    const depth = pathSegments(path).length;
    const onward = mounts.map((m) => m.mount_path);
    if (mount && !insideBase) onward.push(base);
    for (const below of onward) {
      if (below === path || !isNormalizedPathWithin(path, below)) continue;
      const next = pathSegments(below)[depth]!;
      const child = joinPath(path, next);
      if (names.has(next) || !this.allowed(principal, child, 'navigate')) continue;
      names.add(next);
      items.push({
        name: next,
        path: `${child}/`,
        isDirectory: true,
        isVirtual: true,
        size: 0,
        modified: null,
      });
    }
    if (!mount && items.length === 0 && path !== '/' && insideBase) throw notFound('fs.mount_not_found');
    // A mount's items come sorted (and cached so); only added virtual folders need sorting in.
    if (items.length > fromStorage) items.sort(byKindThenName);
    const answer: FsListing = {
      path,
      type: 'directory',
      isRoot: path === '/',
      isVirtual: !mount,
      hasPermission: insideBase,
      ...listing,
      items,
    };
    // Answered whole from the cache: the items' JSON is made once, not per request.
    if (entry && items.length === fromStorage) {
      const cached = entry;
      serializedItems.set(
        answer,
        () => (cached.json ??= new TextEncoder().encode(JSON.stringify(cached.items))),
      );
    }
    return answer;
  }

  /**
   * Every entry of a mount folder (all driver pages), from the cache while it is fresh (as `cache`
   * says). A key's base folder that does not exist yet (`missingIsEmpty`) lists as empty: it is the
   * key's home.
   */
  private async mountItems(
    at: MountedPath,
    missingIsEmpty: boolean,
    cache: ListingCache,
  ): Promise<{ items: FsItem[]; entry?: CachedListing }> {
    const key = cacheKey(at.mount.id, at.subPath);
    const now = this.deps.clock.now().getTime();
    const cached = cache === 'use' ? this.cache.get(key) : undefined;
    if (cached) {
      if (cached.expiresAt > now && this.trusted(cached, now)) {
        this.stats.hits++;
        this.countLookup(at.mount.id, 'hits');
        cached.usedAt = now;
        return { items: [...cached.items], entry: cached };
      }
      this.stats.expired++;
      this.cache.delete(key);
    }
    if (cache === 'use') {
      this.stats.misses++;
      this.countLookup(at.mount.id, 'misses');
    }
    const generation = this.generation;
    const entries: Entry[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await at.driver.list(at.subPath, cursor === undefined ? {} : { cursor });
        for (const entry of page.entries) entries.push(entry);
        cursor = page.cursor;
      } while (cursor !== undefined);
    } catch (error) {
      if (!(missingIsEmpty && isStorageError(error, 'NOT_FOUND'))) throw fsStorageFailure(error);
    }
    const items = entries.map((e) => this.item(at.mount, e)).sort(byKindThenName);
    if (cache === 'bypass') return { items };
    if (at.mount.cache_ttl <= 0 || generation !== this.generation) {
      // A refresh read what the storage holds now: whatever was cached before is older still.
      if (cache === 'refresh') this.cache.delete(key);
      return { items };
    }
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.prune(now);
    const entry: CachedListing = {
      items,
      storedAt: now,
      expiresAt: now + at.mount.cache_ttl * 1000,
      usedAt: now,
    };
    this.cache.set(key, entry);
    return { items: [...items], entry };
  }

  private item(mount: MountsTable, entry: Entry): FsItem {
    const path = this.virtualPath(mount, entry.path);
    const item: FsItem = {
      name: entry.name,
      path: entry.isDirectory ? `${path}/` : path,
      isDirectory: entry.isDirectory,
      isVirtual: false,
      size: entry.size,
      modified: isoOrNull(entry.modified),
    };
    const etag = entry.etag === undefined ? undefined : bareEtag(entry.etag);
    if (etag) item.etag = etag;
    return item;
  }

  /** What is at a path inside a mount (file or folder); 404 when nothing. */
  async stat(principal: Principal, raw: unknown): Promise<{ at: MountedPath; entry: Entry }> {
    const at = await this.resolveMounted(principal, raw, 'read');
    const entry = await storageOp(() => at.driver.stat(at.subPath));
    return { at, entry };
  }

  // ---- writing --------------------------------------------------------------------------------

  /** Creates a folder (and missing parents); 409 when something is there. */
  async mkdir(principal: Principal, raw: unknown): Promise<MountedPath> {
    const at = await this.resolveWritable(principal, raw);
    await storageOp(() => at.driver.mkdir(at.subPath));
    await this.report({ kind: 'made', at: placeOf(at) });
    return at;
  }

  /** Removes a file, or a folder with everything in it. A mount's root cannot be removed. */
  async remove(principal: Principal, raw: unknown): Promise<MountedPath> {
    const at = await this.resolveWritable(principal, raw, { existing: true });
    const size = await this.sizeBefore(at);
    await storageOp(() => at.driver.remove(at.subPath, { recursive: true }));
    await this.report({ kind: 'deleted', at: placeOf(at), ...(size ? { size } : {}) });
    return at;
  }

  /** Streams a file into place (replacing one that is there). */
  async write(
    principal: Principal,
    raw: unknown,
    body: ReadableStream<Uint8Array>,
    options: {
      size?: number;
      contentType?: string;
      /** The most bytes the body may bring when its size is not known (a form's length): reserved first. */
      expected?: number;
    } = {},
  ) {
    const { expected, ...writeOptions } = options;
    const at = await this.resolveWritable(principal, raw);
    // A file replaced makes room for its replacement: only what the new one adds is reserved.
    const previousSize = await this.sizeBefore(at);
    const credit = previousSize ?? 0;
    const reservation = await this.reserve(at, Math.max(0, (options.size ?? expected ?? 0) - credit));
    const metered = meter(body, reservation, credit);
    try {
      const result = await storageOp(() => at.driver.write(at.subPath, metered.body, writeOptions));
      await this.report({
        kind: 'written',
        at: placeOf(at),
        size: result.size,
        etag: result.etag,
        previousSize,
      });
      return { at, result };
    } catch (error) {
      throw metered.failure ?? error;
    } finally {
      await reservation.release();
    }
  }

  // ---- the quota ------------------------------------------------------------------------------

  /**
   * Reserves `bytes` of the quota of `at`'s storage for a write about to start (507 when there is no
   * room; vfs/quota.ts). `id` names one that later requests find again (a relay upload's).
   */
  reserve(at: Pick<MountedPath, 'config'>, bytes: number, options: { id?: string; ttlMs?: number } = {}) {
    return this.deps.quota?.reserve(at.config, bytes, options) ?? Promise.resolve(NO_RESERVATION);
  }

  /** The reservation `id` made earlier in `at`'s storage (a relay upload's next part). */
  reservation(at: Pick<MountedPath, 'config'>, id: string): Reservation {
    return this.deps.quota?.existing(at.config, id) ?? NO_RESERVATION;
  }

  /** Ends the reservation `id` (its write is accounted for, or gave up). */
  async releaseReservation(id: string): Promise<void> {
    await this.deps.quota?.release(id);
  }

  /**
   * What a write at `at` replaces (0 when nothing is there), for the quota's count; undefined when
   * its storage has no quota (nothing to count) or the storage cannot say.
   */
  async sizeBefore(at: MountedPath): Promise<number | undefined> {
    if (!this.deps.quota || !at.config.total_storage_bytes) return undefined;
    return at.driver.stat(at.subPath).then(
      (entry) => (entry.isDirectory ? undefined : entry.size),
      (error: unknown) => (isStorageError(error, 'NOT_FOUND') ? 0 : undefined),
    );
  }

  /** Renames (moves) a file or folder within one mount; 409 when the target exists. */
  async rename(
    principal: Principal,
    rawFrom: unknown,
    rawTo: unknown,
  ): Promise<{ from: MountedPath; to: MountedPath }> {
    const from = await this.resolveWritable(principal, rawFrom, { existing: true });
    const to = await this.resolveWritable(principal, rawTo);
    if (from.mount.id !== to.mount.id) throw badRequest('fs.rename_across_mounts');
    if (from.subPath === to.subPath) throw badRequest('fs.same_path');
    await storageOp(async () => {
      const exists = await to.driver.stat(to.subPath).then(
        () => true,
        (error: unknown) => {
          if (isStorageError(error, 'NOT_FOUND')) return false;
          throw error;
        },
      );
      if (exists) throw new AppError(409, 'CONFLICT', 'fs.target_exists');
      await from.driver.move(from.subPath, to.subPath);
    });
    await this.report({ kind: 'moved', from: placeOf(from), to: placeOf(to) });
    return { from, to };
  }

  /**
   * 423 when a WebDAV lock binds a write to `targets` (vfs/locks.ts): no door but WebDAV can
   * send a lock's token, so there a locked path stays locked. A WebDAV request checked its writes
   * already, with the tokens it sent.
   */
  async assertUnlocked(principal: Principal, targets: WriteTarget[]): Promise<void> {
    if (!this.deps.locks || locksCheckedHere()) return;
    const root = await unansweredLock(this.deps.locks, this.deps.clock, principal, targets, NO_TOKENS);
    if (root !== undefined) throw new AppError(423, 'LOCKED', 'fs.locked', { path: root });
  }

  /**
   * A path inside a mount that may be written: never a mount's root itself, and (unless it names
   * what `existing` says is already there, to be removed) within the name limits every storage
   * takes: each name at most {@link MAX_NAME_BYTES} bytes of UTF-8, the path inside its storage at
   * most {@link MAX_PATH_BYTES}.
   */
  async resolveWritable(
    principal: Principal,
    raw: unknown,
    options: { existing?: boolean } = {},
  ): Promise<MountedPath> {
    const at = await this.resolveMounted(principal, raw, 'write');
    if (at.subPath === '/') throw forbidden('fs.mount_root_forbidden');
    if (!options.existing) {
      if (pathSegments(at.subPath).some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
        throw new AppError(400, 'VALIDATION_FAILED', 'fs.name_too_long', { max: MAX_NAME_BYTES });
      }
      if (Buffer.byteLength(at.subPath) > MAX_PATH_BYTES) {
        throw new AppError(400, 'VALIDATION_FAILED', 'fs.path_too_long', { max: MAX_PATH_BYTES });
      }
    }
    // Whatever the write does to the path — make, replace, remove or move it — a lock on it, on a
    // folder above it, inside it, or (its folder's members change) a depth-0 one on its folder binds.
    await this.assertUnlocked(principal, [{ path: at.path, below: true, membership: true }]);
    return at;
  }

  // ---- the directory cache --------------------------------------------------------------------

  /**
   * Forgets what a change made stale, in every mount that shows its storage, the one rule every
   * write follows: the listing of the changed path's folder and of every folder above it — a write
   * into a new subfolder makes the folders it lies in (a new entry in each listing up to the first
   * that already held one), and removing the last object of an S3 folder makes it vanish from its
   * parent — and, when a folder went or moved, every listing at or below it.
   */
  /**
   * Forgets every listing at, above and below `places`, in every mount that shows them: for what
   * failed midway, when what it left is not known (nothing else follows such a non-change).
   */
  async forgetAround(...places: Place[]): Promise<void> {
    for (const at of places) await this.forgetChanged({ kind: 'deleted', at });
  }

  private async forgetChanged(change: StorageChange): Promise<void> {
    const places = change.kind === 'moved' ? [change.from, change.to] : [change.at];
    const below = change.kind === 'moved' || change.kind === 'deleted';
    const mounts = await this.deps.mounts.list();
    for (const place of places) {
      for (const mount of mounts) {
        if (mount.storage_config_id !== place.configId) continue;
        this.forget(mount.id, parentOf(place.path), { above: true });
        if (below) this.forget(mount.id, place.path, { below: true });
      }
    }
  }

  /** Whether a cached listing may be used: any while notes arrive, only young ones while they may not. */
  private trusted(entry: CachedListing, now: number): boolean {
    return this.deps.bus?.state() !== 'degraded' || entry.storedAt > now - DEGRADED_TTL_MS;
  }

  /** Another instance's note, or (`null`) notes were missed: forgets what it names, here only. */
  async applyNote(note: CacheNote | null): Promise<void> {
    if (note === null) this.clearLocal(undefined);
    else if (note.kind === 'listing') {
      this.forgetLocal(note.mount, note.path, { below: note.below, above: note.above === true });
    } else if (note.kind === 'listings') {
      this.clearLocal(await this.mountIds({ mountId: note.mount, storageConfigId: note.config }));
    }
  }

  private forget(mountId: string, subPath: string, scope: ForgetScope): void {
    this.forgetLocal(mountId, subPath, scope);
    this.deps.bus?.publish({
      kind: 'listing',
      mount: mountId,
      path: subPath,
      below: scope.below === true,
      ...(scope.above ? { above: true } : {}),
    });
  }

  /** Forgets the listing of `subPath`, with `above` those of the folders it lies in, with `below` those under it. */
  private forgetLocal(mountId: string, subPath: string, scope: ForgetScope): void {
    this.generation++;
    const drop = (key: string) => {
      if (this.cache.delete(key)) this.stats.invalidations++;
    };
    drop(cacheKey(mountId, subPath));
    if (scope.above) {
      for (let folder = subPath; folder !== '/';) drop(cacheKey(mountId, (folder = parentOf(folder))));
    }
    if (!scope.below) return;
    const prefix = cacheKey(mountId, subPath === '/' ? '/' : `${subPath}/`);
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) drop(key);
  }

  /** Clears the cache of one mount, of the mounts on one storage config, or everything; returns how many listings went. */
  async clearCache(scope: { mountId?: string; storageConfigId?: string } = {}): Promise<number> {
    const cleared = this.clearLocal(await this.mountIds(scope));
    this.deps.bus?.publish({ kind: 'listings', mount: scope.mountId, config: scope.storageConfigId });
    return cleared;
  }

  /** The mounts a scope names; undefined for all. */
  private async mountIds(scope: { mountId?: string; storageConfigId?: string }) {
    if (scope.mountId) return new Set([scope.mountId]);
    if (!scope.storageConfigId) return undefined;
    const mounts = await this.deps.mounts.list();
    return new Set(mounts.filter((m) => m.storage_config_id === scope.storageConfigId).map((m) => m.id));
  }

  /** Forgets the listings of some mounts (undefined: all) here; returns how many went. */
  private clearLocal(mountIds: Set<string> | undefined): number {
    this.generation++;
    let cleared = 0;
    for (const key of [...this.cache.keys()]) {
      if (mountIds && !mountIds.has(key.slice(0, key.indexOf('\u0000')))) continue;
      this.cache.delete(key);
      cleared++;
    }
    this.stats.invalidations += cleared;
    return cleared;
  }

  cacheStats(): CacheStats {
    const lookups = this.stats.hits + this.stats.misses;
    return {
      ...this.stats,
      cacheSize: this.cache.size,
      hitRate: lookups === 0 ? 0 : Math.round((this.stats.hits / lookups) * 1000) / 1000,
    };
  }

  /** Per mount: cached listings now, and hits and misses since the start. */
  mountCacheStats(): MountCacheCounters[] {
    const entries = new Map<string, number>();
    for (const key of this.cache.keys()) {
      const mountId = key.slice(0, key.indexOf('\u0000'));
      entries.set(mountId, (entries.get(mountId) ?? 0) + 1);
    }
    const ids = new Set([...entries.keys(), ...this.mountStats.keys()]);
    return [...ids].map((mountId) => ({
      mount_id: mountId,
      entries: entries.get(mountId) ?? 0,
      hits: this.mountStats.get(mountId)?.hits ?? 0,
      misses: this.mountStats.get(mountId)?.misses ?? 0,
    }));
  }

  private countLookup(mountId: string, outcome: 'hits' | 'misses'): void {
    const counts = this.mountStats.get(mountId) ?? { hits: 0, misses: 0 };
    counts[outcome]++;
    this.mountStats.set(mountId, counts);
  }

  private prune(now: number): void {
    const goal = Math.ceil(CACHE_MAX_ENTRIES * CACHE_PRUNE_SHARE);
    let removed = 0;
    for (const [key, entry] of this.cache) {
      if (entry.expiresAt <= now) {
        this.cache.delete(key);
        removed++;
      }
    }
    if (removed < goal) {
      const oldest = [...this.cache.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
      for (const [key] of oldest.slice(0, goal - removed)) {
        this.cache.delete(key);
        removed++;
      }
    }
    this.stats.pruned += removed;
  }

  /** Records that a mount was used, at most once a minute per mount. */
  private touch(mount: MountsTable): void {
    const now = this.deps.clock.now();
    if ((this.touched.get(mount.id) ?? 0) > now.getTime() - TOUCH_EVERY_MS) return;
    this.touched.set(mount.id, now.getTime());
    void this.deps.mounts.touch(mount.id, now.toISOString()).catch(() => undefined);
  }
}

/** Listings whose items are a cached listing's, with that listing's JSON bytes. */
const serializedItems = new WeakMap<FsListing, () => Uint8Array<ArrayBuffer>>();

/** The JSON bytes of a listing's `items` when they came whole from the cache (else undefined). */
export function cachedItemsJson(listing: FsListing): Uint8Array<ArrayBuffer> | undefined {
  return serializedItems.get(listing)?.();
}

const cacheKey = (mountId: string, subPath: string) => `${mountId}\u0000${subPath}`;

/** Which listings besides a folder's own a forget takes: those above it, those below it. */
interface ForgetScope {
  above?: boolean;
  below?: boolean;
}

/** The place in storage a mounted path names (vfs/changes.ts). */
export function placeOf(at: Pick<MountedPath, 'config' | 'subPath'>): Place {
  return { configId: at.config.id, path: at.subPath };
}

/** What a mount really is, from its config (CloudPaste clients know only "S3"). */
export function storageType(config: Pick<StorageConfigRecord, 'driver'>): 'S3' | 'Local' {
  return config.driver === 's3' ? 'S3' : 'Local';
}

/**
 * `body` counted against `reservation` as it streams (past `credit`): a chunk that passes what the quota lets the
 * write hold fails the stream (`failure`, a 507 to answer instead of the driver's echo of it), so
 * nothing past the quota is written.
 */
export function meter(
  body: ReadableStream<Uint8Array>,
  reservation: Reservation,
  /** Bytes that need no room (those of the file being replaced). */
  credit = 0,
): { body: ReadableStream<Uint8Array>; readonly failure: StorageFullError | undefined } {
  if (reservation === NO_RESERVATION) return { body, failure: undefined };
  const state: { failure: StorageFullError | undefined } = { failure: undefined };
  let free = credit;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        const covered = Math.min(free, chunk.byteLength);
        free -= covered;
        try {
          await reservation.consume(chunk.byteLength - covered);
        } catch (error) {
          if (error instanceof StorageFullError) state.failure = error;
          throw error;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return {
    body: counted,
    get failure() {
      return state.failure;
    },
  };
}
