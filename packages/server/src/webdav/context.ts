/**
 * What every WebDAV method works with: the services it stands on (the vfs and the fs service — one
 * home for paths, permissions, caches and share records), the request's canonical path, and what is
 * at a path. WebDAV is another front door to the virtual tree, not a second storage layer.
 */
import { mimeFromFilename, type Principal } from '@cubby/shared';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { AppError, badRequest, conflict } from '../errors/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { FsService } from '../modules/fs/fs.service.ts';
import type { FsTasksService } from '../modules/fs-tasks/fs-tasks.service.ts';
import type { SettingsService } from '../modules/settings/settings.service.ts';
import { parentOf, type Vfs } from '../vfs/vfs.ts';
import type { DavRepository } from './dav.repository.ts';

export interface DavDeps {
  vfs: Vfs;
  fs: FsService;
  tasks: FsTasksService;
  settings: SettingsService;
  repo: DavRepository;
  clock: Clock;
}

/** One request: who asks, for which canonical path, with which headers. */
export interface DavRequest {
  c: Context<AppEnv>;
  deps: DavDeps;
  principal: Principal;
  /** Canonical virtual path ("/" for /dav/). */
  path: string;
  /** The URL ended in `/`. */
  slash: boolean;
}

/** What is at a path, as PROPFIND and the conditions see it. */
export interface DavResource {
  path: string;
  isCollection: boolean;
  size: number;
  modified: Date | null;
  /** Quoted, files only. */
  etag?: string;
  contentType?: string;
}

export const DAV_PREFIX = '/dav';

/**
 * The canonical virtual path of a `/dav…` URL path: each segment decoded exactly once (an encoded
 * `/` or a malformed escape is refused), then the shared normalisation of the vfs (no `.`/`..`,
 * NUL or control characters).
 */
export function davPath(vfs: Vfs, urlPath: string): { path: string; slash: boolean } {
  if (urlPath !== DAV_PREFIX && !urlPath.startsWith(`${DAV_PREFIX}/`))
    throw badRequest('webdav.path_invalid');
  const rest = urlPath.slice(DAV_PREFIX.length) || '/';
  let decoded: string;
  try {
    decoded = rest
      .split('/')
      .map((segment) => {
        const part = decodeURIComponent(segment);
        if (part.includes('/')) throw new Error('encoded slash');
        return part;
      })
      .join('/');
  } catch {
    throw badRequest('webdav.path_invalid');
  }
  return { path: vfs.target(decoded).path, slash: rest.endsWith('/') };
}

const collection = (path: string): DavResource => ({ path, isCollection: true, size: 0, modified: null });

/**
 * What is at `path` for `principal`, or null when nothing is. A key sees the folders on the way to
 * its base path (only those); a path it may not even pass through is 403.
 */
export async function lookup(deps: DavDeps, principal: Principal, path: string): Promise<DavResource | null> {
  const resolved = await deps.vfs.resolve(principal, path, 'navigate');
  if (resolved.kind === 'virtual' || !deps.vfs.allowed(principal, path, 'read')) {
    if (path === '/') return collection(path);
    try {
      await deps.vfs.list(principal, path);
      return collection(path);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }
  const entry = await deps.vfs.find(resolved);
  // A folder the principal is given (a key's base path, a member's home) is there even before
  // anything was written in it (as in fs lists).
  if (!entry) return deps.vfs.isGrantRoot(principal, path) ? collection(path) : null;
  if (entry.isDirectory) return { ...collection(path), modified: entry.modified };
  return {
    path,
    isCollection: false,
    size: entry.size,
    modified: entry.modified,
    ...(entry.etag ? { etag: entry.etag } : {}),
    contentType: mimeFromFilename(entry.name),
  };
}

/** 409 unless the folder that would hold `path` exists (WebDAV never creates missing parents). */
export async function requireParent(deps: DavDeps, principal: Principal, path: string): Promise<void> {
  const parent = parentOf(path);
  const at = await lookup(deps, principal, parent).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 403) return null;
    throw error;
  });
  if (!at?.isCollection) throw conflict('webdav.parent_missing');
}
