/**
 * The logic of the base path picker: it walks the virtual tree of the mounts with
 * `GET /admin/fs/list?path=` (the answer's `items`, CloudPaste's shape: directories have a path
 * ending in `/`) and shows folders only; where it starts, the way up, and the breadcrumbs.
 */
import { normalizeFsPath } from '@cubby/shared';

export interface PickerFolder {
  name: string;
  /** Canonical: no trailing `/` (except the root). */
  path: string;
  /** A folder that only exists on the way to a mount (or is a mount's own root). */
  isVirtual: boolean;
}

/** The listing call for a folder. */
export function listUrl(path: string, tree: 'admin' | 'user' = 'admin'): string {
  return `/${tree}/fs/list?path=${encodeURIComponent(path)}`;
}

/** Where the picker opens: the field's path when it is a valid one, else the top. */
export function startingPath(fieldValue: string): string {
  const trimmed = fieldValue.trim();
  return (trimmed && normalizeFsPath(trimmed)) || '/';
}

/** The folders of a listing answer, in its order; files and malformed items are left out. */
export function foldersOf(listing: unknown): PickerFolder[] {
  const items = (listing as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  const folders: PickerFolder[] = [];
  for (const raw of items as Array<Record<string, unknown>>) {
    if (!raw || raw.isDirectory !== true || typeof raw.path !== 'string' || typeof raw.name !== 'string')
      continue;
    const path = normalizeFsPath(raw.path);
    if (path === null || path === '/') continue;
    folders.push({ name: raw.name, path, isVirtual: raw.isVirtual === true });
  }
  return folders;
}

/** The folder above, or null at the top. */
export function parentOf(path: string): string | null {
  if (path === '/') return null;
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** The top, then each folder on the way to `path`, with the path each leads to. */
export function crumbsOf(path: string): Array<{ name: string; path: string }> {
  const crumbs = [{ name: '/', path: '/' }];
  let at = '';
  for (const segment of path.split('/').filter(Boolean)) {
    at += `/${segment}`;
    crumbs.push({ name: segment, path: at });
  }
  return crumbs;
}
