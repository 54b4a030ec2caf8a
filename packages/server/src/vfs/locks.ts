/**
 * Write locks (taken over WebDAV, RFC 4918 §6) bind every door into storage (docs/architecture.md,
 * "Locks"): a write to a path a live lock covers needs that lock's token, sent by whoever took it.
 * Only WebDAV clients can send tokens (in the If header), so through the fs API, the explorer,
 * share uploads and copy tasks a locked path is simply locked (423) until its lock is released or
 * expires. This module is the rule; the vfs applies it to every write, WebDAV to its requests with
 * their tokens (webdav/conditions.ts adds the If header's own conditions).
 *
 * What binds a write to a path: a lock on the path itself or a depth-infinity lock on a folder above
 * it; a depth-0 lock on its folder when the folder's members change (a name made or removed); and,
 * when a folder goes or is replaced, every lock inside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { creatorId, type Principal } from '@cubby/shared';
import type { DavLocksTable } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { ancestorsAndSelf, parentOf } from '../storage/driver-path.ts';

/** Where locks are kept (the database: every instance sees the same). */
export interface LockStore {
  /** Live locks rooted at one of `roots`, or (with `below`) anywhere under that folder. */
  locks(now: string, roots: string[], below?: string): Promise<DavLocksTable[]>;
}

/** What a write touches, for the lock check. */
export interface WriteTarget {
  /** The canonical virtual path. */
  path: string;
  /** A folder that goes or is replaced: the locks inside it count too. */
  below?: boolean;
  /** Members of its folder change (created, removed): a depth-0 lock on the folder counts too. */
  membership?: boolean;
}

/** Whether `lock` covers `path`: its root, or inside a depth-infinity lock's folder. */
export function covers(lock: Pick<DavLocksTable, 'path' | 'depth'>, path: string): boolean {
  if (lock.path === path) return true;
  if (lock.depth !== 'infinity') return false;
  return lock.path === '/' ? path !== '/' : path.startsWith(`${lock.path}/`);
}

/** The live locks that cover `path` (and with `below`, those inside it too). */
export async function locksOn(
  store: LockStore,
  clock: Clock,
  path: string,
  below = false,
): Promise<DavLocksTable[]> {
  const now = clock.now().toISOString();
  const rows = await store.locks(now, ancestorsAndSelf(path), below ? path : undefined);
  return rows.filter(
    (lock) =>
      covers(lock, path) ||
      (below && lock.path !== path && lock.path.startsWith(path === '/' ? '/' : `${path}/`)),
  );
}

/**
 * The root of the first lock that binds a write to `targets` and is not answered by `tokens` sent
 * by `principal` (each exclusive lock needs its own token; shared locks on one root any one of
 * theirs); undefined when none does.
 */
export async function unansweredLock(
  store: LockStore,
  clock: Clock,
  principal: Principal,
  targets: WriteTarget[],
  tokens: ReadonlySet<string>,
): Promise<string | undefined> {
  const me = creatorId(principal);
  for (const target of targets) {
    const locks = await locksOn(store, clock, target.path, target.below === true);
    if (target.membership && target.path !== '/') {
      const parentLocks = await store.locks(clock.now().toISOString(), [parentOf(target.path)]);
      for (const lock of parentLocks) if (lock.depth === '0') locks.push(lock);
    }
    const groups = new Map<string, DavLocksTable[]>();
    for (const lock of locks) {
      const key = lock.scope === 'exclusive' ? lock.token : `shared ${lock.path}`;
      const group = groups.get(key) ?? [];
      group.push(lock);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      if (!group.some((lock) => tokens.has(lock.token) && lock.principal === me)) return group[0]!.path;
    }
  }
  return undefined;
}

/**
 * Marks the work of one WebDAV request, whose writes were checked against the locks with the
 * tokens its If header sent (and RFC 4918's finer rules): the vfs does not check them again without
 * those tokens.
 */
const checkedByWebdav = new AsyncLocalStorage<true>();

export function withLocksChecked<T>(work: () => T): T {
  return checkedByWebdav.run(true, work);
}

export function locksCheckedHere(): boolean {
  return checkedByWebdav.getStore() === true;
}
