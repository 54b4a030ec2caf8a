/**
 * The virtual file system: one tree over every mount (docs/architecture.md, "The storage core").
 * The fs routes, WebDAV, the copy engine and the explorer all go through it for its rules: paths and
 * confinement, name limits, locks, quota, change events and the listings cache. Callers never hold a
 * driver: a {@link MountedPath} names a place, and what is done there is a method of the vfs.
 *
 * This class is the façade over the parts, one file per concern:
 * - vfs/resolve.ts: canonical paths, permission and base-path confinement, mounts, share folders;
 * - vfs/listing.ts: listings and their cache (forgotten on every change, here and on other instances);
 * - vfs/folder-rules.ts: folder rules (hidden names, folder passwords, READMEs) on every door;
 * - vfs/mutations.ts: every write (name limits, locks, quota reservation, storage call, change event);
 * - vfs/copy-engine.ts: copying and moving files and folders, on one storage or across storages;
 * - vfs/serve-object.ts: streaming an object as an HTTP answer (Range, validators).
 */
import type { Principal } from '@cubby/shared';
import type { MountsTable } from '../db/schema.ts';
import type { CacheBus, CacheNote } from '../lib/cache-bus.ts';
import type { Clock } from '../lib/clock.ts';
import {
  type Entry,
  isStorageError,
  type PresignGetOptions,
  type PresignPutOptions,
  type ReadOptions,
  type ReadResult,
} from '../storage/driver.ts';
import { ChangeFeed, type Place, type StorageChange } from './changes.ts';
import { CopyEngine, type CopyItem, type CopyRun } from './copy-engine.ts';
import { FolderRules, type FolderRuleSource } from './folder-rules.ts';
import { type FsListing, type ListingCache, Listings, sameItemsJson } from './listing.ts';
import type { LockStore, WriteTarget } from './locks.ts';
import { Mutations, statIfAny } from './mutations.ts';
import type { StorageQuota } from './quota.ts';
import {
  type ConfigSource,
  type FsAccess,
  type MountedPath,
  type MountSource,
  Resolver,
  virtualPath,
} from './resolve.ts';
import { type ServeObjectOptions, serveObject, type ServeRequest } from './serve-object.ts';
import { storageOp } from './storage-answers.ts';
import { capable, type VfsCapability } from './capabilities.ts';

export {
  type ConfigSource,
  type FsAccess,
  type FsTarget,
  type MountedPath,
  type MountSource,
  placeOf,
  type ResolvedPath,
  storageType,
  type VfsConfig,
} from './resolve.ts';
export {
  cachedItemsJson,
  type CacheStats,
  type FsItem,
  type FsListing,
  type ListingCache,
} from './listing.ts';
export { MAX_NAME_BYTES, MAX_PATH_BYTES, meter } from './mutations.ts';
export {
  type FolderRuleRecord,
  type FolderRuleSource,
  FolderRules,
  hideMatcher,
  MAX_PATH_TOKENS,
} from './folder-rules.ts';
export { fsStorageFailure, storageOp } from './storage-answers.ts';
// What the doors need of the drivers' vocabulary, so that none of them imports storage/.
export { ByteLimit } from '../storage/byte-limit.ts';
export { type Entry, isStorageError, MULTIPART_LIMITS } from '../storage/driver.ts';
export { ancestorsAndSelf, joinPath, nameOf, parentOf } from '../storage/driver-path.ts';

export { capable, type VfsCapability } from './capabilities.ts';

/**
 * Whether a driver can do what `capability` names: the one place the vfs asks (until the drivers
 * declare their capabilities, storage/driver.ts).
 */
export interface VfsDeps {
  /** The mounts (modules/mounts/mounts.repository.ts). */
  mounts: MountSource;
  /** The storage configs and their drivers. */
  storageConfigs: ConfigSource;
  clock: Clock;
  /** Tells the other instances what this one forgot (and what they changed, through {@link Vfs.applyNote}). */
  bus?: CacheBus;
  /** WebDAV's locks, which bind every write (vfs/locks.ts). */
  locks?: LockStore;
  /** Each storage config's quota, which every write reserves from (vfs/quota.ts). */
  quota?: StorageQuota;
  /** The folder rules (modules/fs-meta/), and the secret their password tokens are signed with. */
  folderRules?: { source: FolderRuleSource; secretKey: string };
}

const NO_RULES: FolderRuleSource = { all: () => Promise.resolve([]) };

export class Vfs {
  private readonly resolver: Resolver;
  private readonly listings: Listings;
  private readonly mutations: Mutations;
  private readonly copies: CopyEngine;
  /** Folder rules: every path the vfs resolves and every listing it answers obeys them. */
  readonly folderRules: FolderRules;

  /**
   * Every change to storage, from every door (vfs/changes.ts). The listings cache is its first
   * listener; app.ts adds the rest (file shares follow their files).
   */
  readonly changes = new ChangeFeed();
  private readonly configs: ConfigSource;

  constructor(deps: VfsDeps) {
    this.configs = deps.storageConfigs;
    const report = (change: StorageChange) => this.report(change);
    this.folderRules = new FolderRules({
      source: deps.folderRules?.source ?? NO_RULES,
      secretKey: deps.folderRules?.secretKey ?? '',
      clock: deps.clock,
      ...(deps.bus ? { bus: deps.bus } : {}),
    });
    this.resolver = new Resolver({
      mounts: deps.mounts,
      storageConfigs: deps.storageConfigs,
      assertUnlocked: (principal, targets) => this.assertUnlocked(principal, targets),
      guard: (principal, path) => this.folderRules.guard(principal, path),
    });
    this.listings = new Listings({
      resolver: this.resolver,
      mounts: deps.mounts,
      clock: deps.clock,
      ...(deps.bus ? { bus: deps.bus } : {}),
    });
    this.mutations = new Mutations({
      resolver: this.resolver,
      clock: deps.clock,
      report,
      locks: deps.locks,
      quota: deps.quota,
    });
    this.copies = new CopyEngine({
      resolver: this.resolver,
      mutations: this.mutations,
      report,
      forgetAround: (...places) => this.forgetAround(...places),
      rules: {
        binds: FolderRules.binds,
        visible: (...a) => this.folderRules.visible(...a),
        guard: (...a) => this.folderRules.guard(...a),
      },
    });
    this.changes.subscribe((change) => this.listings.forgetChanged(change));
  }

  /** Tells every listener of a change (the caller made it); resolves once all have followed it. */
  report(change: StorageChange): Promise<void> {
    return this.changes.publish(change);
  }

  // ---- paths and permissions (vfs/resolve.ts) -------------------------------------------------

  target(raw: unknown) {
    return this.resolver.target(raw);
  }

  allowed(principal: Principal, path: string, access: FsAccess): boolean {
    return this.resolver.allowed(principal, path, access);
  }

  check(principal: Principal, path: string, access: FsAccess): void {
    this.resolver.check(principal, path, access);
  }

  isGrantRoot(principal: Principal, path: string): boolean {
    return this.resolver.isGrantRoot(principal, path);
  }

  visibleMounts(principal: Principal) {
    return this.resolver.visibleMounts(principal);
  }

  mountVisible(principal: Principal, mountPath: string): boolean {
    return this.resolver.mountVisible(principal, mountPath);
  }

  resolve(principal: Principal, raw: unknown, access: FsAccess) {
    return this.resolver.resolve(principal, raw, access);
  }

  resolveMounted(principal: Principal, raw: unknown, access: FsAccess): Promise<MountedPath> {
    return this.resolver.resolveMounted(principal, raw, access);
  }

  shareUploadFolder(principal: Principal, configId: string, raw: string | undefined): Promise<string> {
    return this.resolver.shareUploadFolder(principal, configId, raw);
  }

  virtualPath(mount: Pick<MountsTable, 'mount_path'>, subPath: string): string {
    return virtualPath(mount, subPath);
  }

  // ---- reading --------------------------------------------------------------------------------

  /**
   * A folder's listing without the names its rules hide (for all but an admin), with the README
   * its rules show above and below it; 404/403 as {@link resolve} for a hidden or locked folder.
   */
  async list(
    principal: Principal,
    raw: unknown,
    options: { cache?: ListingCache } = {},
  ): Promise<FsListing & { header_markdown: string | null; footer_markdown: string | null }> {
    const { path } = this.target(raw);
    await this.folderRules.guard(principal, path);
    const listing = await this.listings.list(principal, raw, options);
    const items = await this.folderRules.visible(principal, listing.path, listing.items);
    const { header_markdown, footer_markdown } = await this.folderRules.effective(listing.path);
    const answer = { ...listing, items, header_markdown, footer_markdown };
    // Nothing hidden: the cached items' JSON still serves (vfs/listing.ts).
    if (items === listing.items) sameItemsJson(listing, answer);
    return answer;
  }

  /** What is at a path inside a mount (file or folder); 404 when nothing. */
  async stat(principal: Principal, raw: unknown): Promise<{ at: MountedPath; entry: Entry }> {
    const at = await this.resolveMounted(principal, raw, 'read');
    return { at, entry: await this.entry(at) };
  }

  /** What is at a resolved path, or (`subPath`) at a driver path of its storage; 404 when nothing. */
  entry(at: MountedPath, subPath = at.subPath): Promise<Entry> {
    return this.resolver.on(at, (driver) => driver.stat(subPath));
  }

  /** Like {@link entry}, but null when nothing is there (or the path goes through a file). */
  async find(at: MountedPath): Promise<Entry | null> {
    const driver = await this.resolver.driverOf(at);
    return storageOp(() =>
      statIfAny(driver, at.subPath).catch((error: unknown) => {
        if (isStorageError(error, 'NOT_A_DIRECTORY')) return null;
        throw error;
      }),
    );
  }

  /** The bytes of the file at a resolved path (or a driver path of its storage), as a stream. */
  read(at: MountedPath, options: ReadOptions & { subPath?: string } = {}): Promise<ReadResult> {
    const { subPath = at.subPath, ...readOptions } = options;
    return this.resolver.on(at, (driver) => driver.read(subPath, readOptions));
  }

  /** Whether the storage under `at` can do `capability` (see {@link VfsCapability}). */
  async can(at: Pick<MountedPath, 'config'>, capability: VfsCapability): Promise<boolean> {
    return capable(await this.resolver.driverOf(at), capability);
  }

  /** A URL that downloads the file with a plain GET until it expires; null when the storage has none. */
  async presignGet(at: MountedPath, options: PresignGetOptions): Promise<URL | null> {
    const driver = await this.resolver.driverOf(at);
    if (!capable(driver, 'presignGet')) return null;
    return storageOp(() => driver.presignGet!(at.subPath, options));
  }

  /**
   * The URL a file at `at` is downloaded from, as its mount's link policy says (docs/storage.md,
   * "Download links"): `custom_host` — the mount's public address and the file's path in the mount;
   * `direct` — the storage's own presigned URL where it can sign one; otherwise (and for `proxy`) a
   * signed link to this server that streams it through the config's driver, whatever its kind.
   */
  async downloadUrl(at: MountedPath, options: PresignGetOptions): Promise<URL> {
    const { link_policy: policy, custom_host: host } = at.mount;
    if (policy === 'custom_host' && host) {
      return new URL(`${host}${at.subPath.split('/').map(encodeURIComponent).join('/')}`);
    }
    if (policy === 'direct') {
      const direct = await this.presignGet(at, options);
      if (direct) return direct;
    }
    return this.configs.proxyGetUrl(at.config.id, at.subPath, options);
  }

  /**
   * Where a download of `at` leaves from when it must not pass through this server: the mount's
   * public address, or the storage's own URL when the bytes would not come back here. Null when the
   * mount says `proxy`, or when its storage has no such URL (the bytes then stream from here).
   */
  async redirectUrl(at: MountedPath, options: PresignGetOptions): Promise<URL | null> {
    const { link_policy: policy } = at.mount;
    if (policy === 'proxy') return null;
    if (policy === 'direct' && !(await this.can(at, 'presignGet'))) return null;
    if (policy === 'direct' && !(await this.resolver.driverOf(at)).capabilities.directUrls) return null;
    return this.downloadUrl(at, options);
  }

  /** A URL the file can be PUT to whole; null when the storage has none. (The caller reports the write.) */
  async presignPut(at: MountedPath, options: PresignPutOptions): Promise<URL | null> {
    const driver = await this.resolver.driverOf(at);
    if (!capable(driver, 'presignPut')) return null;
    return storageOp(() => driver.presignPut!(at.subPath, options));
  }

  /** Streams the file at `at` as an HTTP answer (Range, validators: vfs/serve-object.ts). */
  async serve(
    c: ServeRequest,
    at: MountedPath,
    options: Omit<ServeObjectOptions, 'driver' | 'path'>,
  ): Promise<Response> {
    return serveObject(c, { ...options, driver: await this.resolver.driverOf(at), path: at.subPath });
  }

  // ---- writing (vfs/mutations.ts) -------------------------------------------------------------

  mkdir(principal: Principal, raw: unknown): Promise<MountedPath> {
    return this.mutations.mkdir(principal, raw);
  }

  remove(principal: Principal, raw: unknown): Promise<MountedPath> {
    return this.mutations.remove(principal, raw);
  }

  write(...args: Parameters<Mutations['write']>) {
    return this.mutations.write(...args);
  }

  rename(principal: Principal, rawFrom: unknown, rawTo: unknown) {
    return this.mutations.rename(principal, rawFrom, rawTo);
  }

  reserve(...args: Parameters<Mutations['reserve']>) {
    return this.mutations.reserve(...args);
  }

  reservation(...args: Parameters<Mutations['reservation']>) {
    return this.mutations.reservation(...args);
  }

  releaseReservation(id: string): Promise<void> {
    return this.mutations.releaseReservation(id);
  }

  sizeBefore(at: MountedPath): Promise<number | undefined> {
    return this.mutations.sizeBefore(at);
  }

  assertUnlocked(principal: Principal, targets: WriteTarget[]): Promise<void> {
    return this.mutations.assertUnlocked(principal, targets);
  }

  resolveWritable(principal: Principal, raw: unknown, options: { existing?: boolean } = {}) {
    return this.mutations.resolveWritable(principal, raw, options);
  }

  /** Copies or moves one item, a file or a folder (vfs/copy-engine.ts). */
  copyItem(principal: Principal, item: CopyItem, run: CopyRun): Promise<void> {
    return this.copies.copyItem(principal, item, run);
  }

  // ---- the listings cache (vfs/listing.ts) ----------------------------------------------------

  forgetAround(...places: Place[]): Promise<void> {
    return this.listings.forgetAround(...places);
  }

  applyNote(note: CacheNote | null): Promise<void> {
    return this.listings.applyNote(note);
  }

  clearCache(scope: { mountId?: string; storageConfigId?: string } = {}): Promise<number> {
    return this.listings.clearCache(scope);
  }

  cacheStats() {
    return this.listings.cacheStats();
  }

  mountCacheStats() {
    return this.listings.mountCacheStats();
  }
}
