/**
 * The explorer's pure rules: folder paths (always ending in `/`), the breadcrumb, sorting (folders
 * first, names in natural order), the filter, the names a user may give, and the "keep both" name.
 */
import { extensionOf, hasControlChars, type FsListItem } from '@cubby/shared';

/** A folder path in its one form: leading and trailing `/` (`/` for the root). */
export function folderPath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** The folder holding `path` (a file or a folder); the root's parent is the root. */
export function parentFolder(path: string): string {
  const segments = folderPath(path).split('/').filter(Boolean);
  return folderPath(segments.slice(0, -1).join('/'));
}

/** The last segment of a path ("" for the root). */
export function baseName(path: string): string {
  return folderPath(path).split('/').filter(Boolean).pop() ?? '';
}

/** The path of `name` inside `folder`, a folder path when `isDirectory`. */
export function childPath(folder: string, name: string, isDirectory = false): string {
  const inside = `${folderPath(folder)}${name}`;
  return isDirectory ? `${inside}/` : inside;
}

export interface Crumb {
  name: string;
  path: string;
}

/** Root first, then one crumb per segment, each pointing at its folder. */
export function breadcrumb(path: string): Crumb[] {
  const segments = folderPath(path).split('/').filter(Boolean);
  return [
    { name: '/', path: '/' },
    ...segments.map((name, index) => ({ name, path: folderPath(segments.slice(0, index + 1).join('/')) })),
  ];
}

export type SortKey = 'name' | 'size' | 'modified' | 'type';
export type SortDirection = 'asc' | 'desc';
export interface SortOrder {
  key: SortKey;
  direction: SortDirection;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareBy(key: SortKey, a: FsListItem, b: FsListItem): number {
  switch (key) {
    case 'size':
      return a.size - b.size;
    case 'modified':
      return (a.modified ? Date.parse(a.modified) : 0) - (b.modified ? Date.parse(b.modified) : 0);
    case 'type':
      return collator.compare(
        a.isDirectory ? '' : extensionOf(a.name),
        b.isDirectory ? '' : extensionOf(b.name),
      );
    case 'name':
      return 0;
  }
}

/** Folders first whatever the order; ties broken by name, so the order is stable and total. */
export function sortItems(items: readonly FsListItem[], order: SortOrder): FsListItem[] {
  const sign = order.direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
    const byKey = compareBy(order.key, a, b);
    const byName = collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    return sign * (byKey || byName);
  });
}

/** Entries whose name holds the query, ignoring case and surrounding spaces. */
export function filterItems(items: readonly FsListItem[], query: string): readonly FsListItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return items;
  return items.filter((item) => item.name.toLocaleLowerCase().includes(needle));
}

export type NameProblem = 'required' | 'slash' | 'dots' | 'control' | 'tooLong' | 'taken';

/** Why a name cannot be given to a new or renamed entry, or null when it can. */
export function nameProblem(name: string, taken: ReadonlySet<string> = new Set()): NameProblem | null {
  if (name.trim() === '') return 'required';
  if (name.includes('/') || name.includes('\\')) return 'slash';
  if (name === '.' || name === '..') return 'dots';
  if (hasControlChars(name)) return 'control';
  if (new TextEncoder().encode(name).length > 255) return 'tooLong';
  if (taken.has(name)) return 'taken';
  return null;
}

/** `report.pdf` → `report (1).pdf` (or the first free number); folders and dotfiles keep no suffix. */
export function keepBothName(name: string, taken: ReadonlySet<string>, isDirectory = false): string {
  const dot = isDirectory ? -1 : name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
