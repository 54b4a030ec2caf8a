/**
 * The listings of the virtual tree and their cache (docs/architecture.md, "The storage core").
 *
 * - Listings are complete (every page of the driver) and sorted folders first, then by name. Paths
 *   above the mounts are virtual directories that list the next segment of each mount.
 * - Drivers' own files (`.cubby-` and `.cubby.` names, storage/driver-names.ts) are left out, from
 *   every storage: each door (fs API, WebDAV, zip, sync) lists through here. They stay reachable by
 *   exact path, so another Cubby's WebDAV driver can keep its temp files and parts behind /dav.
 * - They are cached per mount for the mount's `cache_ttl` (0 = no cache); every change reported to
 *   the vfs, and every share upload into a mounted storage config, invalidates the folders it changed
 *   ({@link Listings.forgetChanged}) — on this instance at once, on the others through the cache bus
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
  type Principal,
} from '@cubby/shared';
import type { MountsTable } from '../db/schema.ts';
import { notFound } from '../errors/app-error.ts';
import { type CacheBus, type CacheNote, DEGRADED_TTL_MS } from '../lib/cache-bus.ts';
import type { Clock } from '../lib/clock.ts';
import { type Entry, isStorageError } from '../storage/driver.ts';
import { isHiddenName } from '../storage/driver-names.ts';
import { joinPath, parentOf, pathSegments } from '../storage/driver-path.ts';
import type { Place, StorageChange } from './changes.ts';
import { type MountedPath, type MountSource, type Resolver, storageType, virtualPath } from './resolve.ts';
import { fsStorageFailure } from './storage-answers.ts';

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

export interface ListingsDeps {
  resolver: Resolver;
  mounts: MountSource;
  clock: Clock;
  /** Tells the other instances what this one forgot (and what they changed, through {@link Listings.applyNote}). */
  bus?: CacheBus;
}

export class Listings {
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

  constructor(private readonly deps: ListingsDeps) {}

  /** A directory listing: a mount's folder (complete, cached), plus virtual entries for mounts below it. */
  async list(principal: Principal, raw: unknown, options: { cache?: ListingCache } = {}): Promise<FsListing> {
    const { path } = this.deps.resolver.target(raw);
    this.deps.resolver.check(principal, path, 'navigate');
    const mounts = await this.deps.resolver.visibleMounts(principal);
    const mount = this.deps.resolver.mountOf(mounts, path);
    const insideBase = this.deps.resolver.allowed(principal, path, 'read');
    let items: FsItem[] = [];
    let entry: CachedListing | undefined;
    let listing: Partial<FsListing> = {};
    if (mount) {
      const mounted = await this.deps.resolver.mounted(mount, path);
      // On the way to the folders it is given a principal sees only that way, not the folder's other names.
      if (insideBase) {
        const given = this.deps.resolver.isGrantRoot(principal, path);
        ({ items, entry } = await this.mountItems(mounted, given, options.cache ?? 'use'));
      }
      listing = { mount_id: mount.id, storage_type: storageType(mounted.config) };
      this.touch(mount);
    } else if (mounts.length === 0 && path !== '/') {
      throw notFound('fs.mount_not_found');
    }
    // The way on: the next segment of each mount below this path, and of each folder the principal
    // is given when this is an ancestor of it (shown as folders unless a real folder has that name).
    const names = new Set(items.filter((i) => i.isDirectory).map((i) => i.name));
    const fromStorage = items.length;
    const depth = pathSegments(path).length;
    const onward = mounts.map((m) => m.mount_path);
    if (mount && !insideBase) onward.push(...this.deps.resolver.grants(principal).map((g) => g.path));
    for (const below of onward) {
      if (below === path || !isNormalizedPathWithin(path, below)) continue;
      const next = pathSegments(below)[depth]!;
      const child = joinPath(path, next);
      if (names.has(next) || !this.deps.resolver.allowed(principal, child, 'navigate')) continue;
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
      writable: mount !== undefined && this.deps.resolver.allowed(principal, path, 'write'),
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
    const driver = await this.deps.resolver.driverOf(at);
    let cursor: string | undefined;
    try {
      do {
        const page = await driver.list(at.subPath, cursor === undefined ? {} : { cursor });
        for (const entry of page.entries) if (!isHiddenName(entry.name)) entries.push(entry);
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
    const path = virtualPath(mount, entry.path);
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

  /**
   * Forgets every listing at, above and below `places`, in every mount that shows them: for what
   * failed midway, when what it left is not known (nothing else follows such a non-change).
   */
  async forgetAround(...places: Place[]): Promise<void> {
    for (const at of places) await this.forgetChanged({ kind: 'deleted', at });
  }

  /**
   * Forgets what a change made stale, in every mount that shows its storage, the one rule every
   * write follows: the listing of the changed path's folder and of every folder above it — a write
   * into a new subfolder makes the folders it lies in (a new entry in each listing up to the first
   * that already held one), and removing the last object of an S3 folder makes it vanish from its
   * parent — and, when a folder went or moved, every listing at or below it.
   */
  async forgetChanged(change: StorageChange): Promise<void> {
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

/** Marks `to` as answering the same items as `from` (its cached JSON bytes serve both). */
export function sameItemsJson(from: FsListing, to: FsListing): void {
  const json = serializedItems.get(from);
  if (json) serializedItems.set(to, json);
}

const cacheKey = (mountId: string, subPath: string) => `${mountId}\u0000${subPath}`;

/** Which listings besides a folder's own a forget takes: those above it, those below it. */
interface ForgetScope {
  above?: boolean;
  below?: boolean;
}
