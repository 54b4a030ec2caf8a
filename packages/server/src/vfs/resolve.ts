/**
 * Where a virtual path lies (docs/architecture.md, "The storage core"): its canonical form, whether
 * a principal may reach it (a key's base path confines it, checked on the virtual path before
 * anything touches storage), and the mount and driver path that hold it.
 *
 * - A virtual path (`/photos/2026/a.jpg`) resolves to the mount whose path is its longest prefix
 *   (whole segments; a mount at `/` takes everything no other mount takes) and the driver path below
 *   it. Paths above the mounts are virtual directories.
 * - Paths are canonical (shared `normalizeFsPath`: already decoded once by the URL or JSON they came
 *   in, `%` literal, no `.`/`..`). A principal reaches the folders it is given (its grants: a key's
 *   base path, a member's home and extra paths, read only or read-write) and may navigate the
 *   directories on the way to them (seeing only that way).
 *
 * The vfs knows mounts and storage configs only through the small sources below; app.ts hands it the
 * repositories and the driver pool that implement them.
 */
import {
  grantsOf,
  isNormalizedPathWithin,
  normalizeFsPath,
  normalizePath,
  type PathGrant,
  type Principal,
  STORAGE_KIND_NAME,
  type StorageKindName,
} from '@cubby/shared';
import type { MountsTable } from '../db/schema.ts';
import type { DriverPool, StorageConfigRecord } from './driver-pool.ts';
import { badRequest, forbidden, notFound } from '../errors/app-error.ts';
import type { StorageDriver } from '../storage/driver.ts';
import type { Place } from './changes.ts';
import type { WriteTarget } from './locks.ts';
import { storageOp } from './storage-answers.ts';
import type { FolderQuota } from './quota.ts';

/** What a caller wants to do at a path: see the way there, read what is there, or change it. */
export type FsAccess = 'navigate' | 'read' | 'write';

/** A canonical virtual path and whether the client marked it as a directory (trailing `/`). */
export interface FsTarget {
  path: string;
  isDirectory: boolean;
}

/** A storage config as the vfs uses it (vfs/driver-pool.ts). */
export type VfsConfig = StorageConfigRecord;

/** The mounts the vfs resolves paths through (modules/mounts/mounts.repository.ts). */
export interface MountSource {
  list(options?: { activeOnly?: boolean }): Promise<MountsTable[]>;
  /** Records that a mount was used (`last_used`). */
  touch(id: string, at: string): Promise<unknown>;
}

/** The storage configs behind the mounts, and the ready driver of each (vfs/driver-pool.ts). */
export type ConfigSource = Pick<DriverPool, 'find' | 'driver' | 'proxyGetUrl'>;

/** A path inside a mount. It names no driver: what is done there is done through the vfs. */
export interface MountedPath {
  kind: 'mount';
  /** The canonical virtual path. */
  path: string;
  mount: MountsTable;
  config: VfsConfig;
  /** The driver path inside the storage config ("/" is the mount's root). */
  subPath: string;
}

export type ResolvedPath = { kind: 'virtual'; path: string } | MountedPath;

/** The virtual path of a driver path inside a mount. */
export function virtualPath(mount: Pick<MountsTable, 'mount_path'>, subPath: string): string {
  if (mount.mount_path === '/') return subPath;
  return subPath === '/' ? mount.mount_path : mount.mount_path + subPath;
}

/** The place in storage a mounted path names (vfs/changes.ts). */
export function placeOf(at: Pick<MountedPath, 'config' | 'subPath'>): Place {
  return { configId: at.config.id, path: at.subPath };
}

/** What a mount really is, from its config (CloudPaste clients know only "S3"). */
export function storageType(config: Pick<VfsConfig, 'driver'>): StorageKindName {
  return STORAGE_KIND_NAME[config.driver];
}

/** The mount holding `path` (longest mount path that equals it or is an ancestor), if any. */
export function mountHolding<M extends Pick<MountsTable, 'mount_path'>>(
  mounts: M[],
  path: string,
): M | undefined {
  let best: M | undefined;
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
 * Folders of the virtual tree with a quota (members' homes) as the quota counts them: a driver
 * path in the config of the mount that holds each (vfs/quota.ts); a folder no mount holds has none.
 */
export function folderQuotas(
  folders: readonly { key: string; path: string; quota: number; ownerId?: string }[],
  mounts: Pick<MountsTable, 'mount_path' | 'storage_config_id'>[],
): FolderQuota[] {
  return folders.flatMap((folder) => {
    const path = normalizeFsPath(folder.path);
    const mount = path === null ? undefined : mountHolding(mounts, path);
    if (!mount || path === null) return [];
    const prefix = mount.mount_path === '/' ? path : path.slice(mount.mount_path.length) || '/';
    return [
      {
        key: folder.key,
        configId: mount.storage_config_id,
        prefix,
        quota: folder.quota,
        ...(folder.ownerId ? { ownerId: folder.ownerId } : {}),
      },
    ];
  });
}

export class Resolver {
  constructor(
    private readonly deps: {
      mounts: MountSource;
      storageConfigs: ConfigSource;
      /** 423 when a WebDAV lock binds a write to the targets (the mutations' rule). */
      assertUnlocked: (principal: Principal, targets: WriteTarget[]) => Promise<void>;
      /** 404 for a hidden path, 403 for a password one (vfs/folder-rules.ts), after the rights. */
      guard?: (principal: Principal, path: string) => Promise<void>;
    },
  ) {}

  /** The canonical form of a client path (400 when it has none); a trailing `/` marks a directory. */
  target(raw: unknown): FsTarget {
    if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('fs.path_required');
    const path = normalizeFsPath(raw);
    if (path === null) throw badRequest('fs.path_invalid');
    return { path, isDirectory: raw.endsWith('/') || path === '/' };
  }

  /**
   * Where a principal reaches, in canonical form (docs/accounts.md): an admin everywhere; a member
   * their home folder and extra paths; a key its base path within its owner's reach; an app
   * password its folder within its person's. A stored path that no longer normalises reaches
   * nothing, never everything.
   */
  grants(principal: Principal): PathGrant[] {
    return grantsOf(principal).flatMap((grant) => {
      const path = normalizeFsPath(grant.path);
      return path === null ? [] : [{ path, write: grant.write }];
    });
  }

  /**
   * The folder a principal's own things go in ("/" for an admin, a key's base path, a member's
   * home): the first place it may write; 403 when it may write nowhere.
   */
  base(principal: Principal): string {
    const own = this.grants(principal).find((g) => g.write);
    if (!own) throw forbidden('fs.path_forbidden');
    return own.path;
  }

  /** Whether `path` is one of the folders a principal is given (listed as empty while it is not there). */
  isGrantRoot(principal: Principal, path: string): boolean {
    return this.grants(principal).some((g) => g.path === path);
  }

  /**
   * Whether `principal` may `access` `path`: inside a folder it is given, reading always and writing
   * where that folder is writable; on the way to one (an ancestor) only navigation.
   */
  allowed(principal: Principal, path: string, access: FsAccess): boolean {
    return this.grants(principal).some((grant) => {
      if (isNormalizedPathWithin(grant.path, path)) return access !== 'write' || grant.write;
      return access === 'navigate' && isNormalizedPathWithin(path, grant.path);
    });
  }

  /** 403 unless {@link allowed}. */
  check(principal: Principal, path: string, access: FsAccess): void {
    if (!this.allowed(principal, path, access)) throw forbidden('fs.path_forbidden');
  }

  /** The active mounts a principal sees: those inside or on the way to the folders it is given. */
  async visibleMounts(principal: Principal): Promise<MountsTable[]> {
    const mounts = await this.deps.mounts.list({ activeOnly: true });
    return mounts.filter((m) => this.mountVisible(principal, m.mount_path));
  }

  /**
   * Whether a principal sees a mount at `mountPath` (active or not): one inside a folder it is given,
   * or one such a folder lies in (the way there). An admin sees every one.
   */
  mountVisible(principal: Principal, mountPath: string): boolean {
    return this.grants(principal).some(
      (g) => isNormalizedPathWithin(g.path, mountPath) || isNormalizedPathWithin(mountPath, g.path),
    );
  }

  /** The mount holding `path` (longest mount path that equals it or is an ancestor), if any. */
  mountOf(mounts: MountsTable[], path: string): MountsTable | undefined {
    return mountHolding(mounts, path);
  }

  /**
   * Resolves a client path after checking `access` for `principal` and the folder rules (nothing
   * touches storage before that). Above every mount it is virtual; inside one it names the mount and the driver path.
   */
  async resolve(principal: Principal, raw: unknown, access: FsAccess): Promise<ResolvedPath> {
    const { path } = this.target(raw);
    this.check(principal, path, access);
    await this.deps.guard?.(principal, path);
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

  /** `path` inside `mount`, with the mount's storage config (404 when the config is gone). */
  async mounted(mount: MountsTable, path: string): Promise<MountedPath> {
    const config = await this.deps.storageConfigs.find(mount.storage_config_id);
    if (!config) throw notFound('fs.storage_not_found');
    const subPath = mount.mount_path === '/' ? path : path.slice(mount.mount_path.length) || '/';
    return { kind: 'mount', path, mount, config, subPath };
  }

  /** The driver that holds a mounted path (the pool's, built once per config). */
  driverOf(at: Pick<MountedPath, 'config'>): Promise<StorageDriver> {
    return this.deps.storageConfigs.driver(at.config);
  }

  /** Runs a call on the driver that holds `at`, its StorageErrors turned into answers. */
  async on<T>(at: Pick<MountedPath, 'config'>, call: (driver: StorageDriver) => Promise<T>): Promise<T> {
    const driver = await this.driverOf(at);
    return storageOp(() => call(driver));
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
    await this.deps.assertUnlocked(
      principal,
      showing.map((m) => ({ path: virtualPath(m, folder) })),
    );
    return folder;
  }
}
