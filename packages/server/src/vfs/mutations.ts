/**
 * Every change to storage through the vfs, one path for all (docs/architecture.md, "The mutation
 * path"): a path that may be written (never a mount's root; names within the limits every storage
 * takes; no WebDAV lock binding it), the quota reserved before bytes flow, the storage call, then the
 * change reported to every listener (listings cache, share upkeep, quota).
 */
import type { Principal } from '@cubby/shared';
import { badRequest, conflict, forbidden, locked } from '../errors/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { type Entry, isStorageError, type StorageDriver } from '../storage/driver.ts';
import { pathSegments } from '../storage/driver-path.ts';
import type { StorageChange } from './changes.ts';
import { type LockStore, locksCheckedHere, unansweredLock, type WriteTarget } from './locks.ts';
import { NO_RESERVATION, type Reservation, StorageFullError, type StorageQuota } from './quota.ts';
import { type MountedPath, placeOf, type Resolver } from './resolve.ts';

const NO_TOKENS: ReadonlySet<string> = new Set();

/** The longest name (one path segment) a write may create: what local file systems take. */
export const MAX_NAME_BYTES = 255;
/** The longest path inside a storage a write may create (S3 keys are at most 1,024 bytes). */
export const MAX_PATH_BYTES = 1000;

/** What is at a driver path, or null when nothing is; any other failure as it is. */
export function statIfAny(driver: StorageDriver, path: string): Promise<Entry | null> {
  return driver.stat(path).catch((error: unknown) => {
    if (isStorageError(error, 'NOT_FOUND')) return null;
    throw error;
  });
}

export interface MutationsDeps {
  resolver: Resolver;
  clock: Clock;
  /** Tells every listener of a change (vfs/changes.ts). */
  report: (change: StorageChange) => Promise<void>;
  /** WebDAV's locks, which bind every write (vfs/locks.ts). */
  locks?: LockStore | undefined;
  /** Each storage config's quota, which every write reserves from (vfs/quota.ts). */
  quota?: StorageQuota | undefined;
}

export class Mutations {
  constructor(private readonly deps: MutationsDeps) {}

  /** Creates a folder (and missing parents); 409 when something is there. */
  async mkdir(principal: Principal, raw: unknown): Promise<MountedPath> {
    const at = await this.resolveWritable(principal, raw);
    await this.deps.resolver.on(at, (driver) => driver.mkdir(at.subPath));
    await this.deps.report({ kind: 'made', at: placeOf(at) });
    return at;
  }

  /** Removes a file, or a folder with everything in it. A mount's root cannot be removed. */
  async remove(principal: Principal, raw: unknown): Promise<MountedPath> {
    const at = await this.resolveWritable(principal, raw, { existing: true });
    const size = await this.sizeBefore(at);
    await this.deps.resolver.on(at, (driver) => driver.remove(at.subPath, { recursive: true }));
    await this.deps.report({ kind: 'deleted', at: placeOf(at), ...(size ? { size } : {}) });
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
      const result = await this.deps.resolver.on(at, (driver) =>
        driver.write(at.subPath, metered.body, writeOptions),
      );
      await this.deps.report({
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
   * Reserves `bytes` for a write at `at` about to start, in the quota of its storage and of any
   * folder around it with one (507 when there is no room; vfs/quota.ts). `id` names one that later
   * requests find again (a relay upload's).
   */
  reserve(
    at: Pick<MountedPath, 'config' | 'subPath'>,
    bytes: number,
    options: { id?: string; ttlMs?: number } = {},
  ) {
    return (
      this.deps.quota?.reserve({ config: at.config, path: at.subPath }, bytes, options) ??
      Promise.resolve(NO_RESERVATION)
    );
  }

  /** The reservation `id` made earlier at `at` (a relay upload's next part). */
  async reservation(at: Pick<MountedPath, 'config' | 'subPath'>, id: string): Promise<Reservation> {
    return (await this.deps.quota?.existing({ config: at.config, path: at.subPath }, id)) ?? NO_RESERVATION;
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
    const driver = await this.deps.resolver.driverOf(at);
    return driver.stat(at.subPath).then(
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
    await this.deps.resolver.on(from, async (driver) => {
      if ((await statIfAny(driver, to.subPath)) !== null) throw conflict('fs.target_exists');
      await driver.move(from.subPath, to.subPath);
    });
    await this.deps.report({ kind: 'moved', from: placeOf(from), to: placeOf(to) });
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
    if (root !== undefined) throw locked('fs.locked', { path: root });
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
    const at = await this.deps.resolver.resolveMounted(principal, raw, 'write');
    if (at.subPath === '/') throw forbidden('fs.mount_root_forbidden');
    if (!options.existing) {
      if (pathSegments(at.subPath).some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
        throw badRequest('fs.name_too_long', { max: MAX_NAME_BYTES });
      }
      if (Buffer.byteLength(at.subPath) > MAX_PATH_BYTES) {
        throw badRequest('fs.path_too_long', { max: MAX_PATH_BYTES });
      }
    }
    // Whatever the write does to the path — make, replace, remove or move it — a lock on it, on a
    // folder above it, inside it, or (its folder's members change) a depth-0 one on its folder binds.
    await this.assertUnlocked(principal, [{ path: at.path, below: true, membership: true }]);
    return at;
  }
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
