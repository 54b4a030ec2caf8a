/**
 * Driver sub-paths. Driver paths arrive already decoded (a file may really be called "100%41.txt"),
 * so they take the shared structural rule (`normalizeDecodedPath`: slashes, `.`/`..`, control
 * characters) without the decoding that client input gets at the edge.
 */
import { isNormalizedPathWithin, normalizeDecodedPath } from '@cubby/shared';
import { StorageError } from './driver.ts';

/** The normalised form of a driver path ("/a/b", root "/"); INVALID_PATH when it cannot be trusted. */
export function driverPath(raw: string): string {
  const normalised = normalizeDecodedPath(raw);
  if (normalised === null) throw new StorageError('INVALID_PATH', 'invalid storage path');
  return normalised;
}

/** Segments of a normalised path ("/" has none). */
export function pathSegments(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** Every folder above `path` and the path itself, from the root down ("/a/b" → "/", "/a", "/a/b"). */
export function ancestorsAndSelf(path: string): string[] {
  const out = ['/'];
  if (path === '/') return out;
  let at = '';
  for (const segment of path.slice(1).split('/')) {
    at += `/${segment}`;
    out.push(at);
  }
  return out;
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** True when `inner` is `outer` or lies below it (whole segments; both already normalised). */
export function isSameOrInside(outer: string, inner: string): boolean {
  const a = normalizeDecodedPath(outer);
  const b = normalizeDecodedPath(inner);
  return a !== null && b !== null && isNormalizedPathWithin(a, b);
}

/** Byte order of UTF-8 names: the order S3 lists keys in, used by every driver's `list`. */
export function compareNames(a: string, b: string): number {
  // UTF-8 byte order is code point order. JavaScript strings are UTF-16, whose unit order differs
  // only where a surrogate (part of a code point above U+FFFF) meets a unit from U+E000 up: moving
  // those two ranges past each other gives code point order without encoding anything.
  if (a === b) return 0;
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/** Printable ASCII but "/" and "\\": normalising leaves a name of these alone as it is, but "." and "..". */
const PLAIN_NAME = /^[\x20-\x2e\x30-\x5b\x5d-\x7e]+$/;

/** Whether a name found in a listing can be named by a driver path (not "", ".", "..", no "/" or "\\"). */
export function isAddressableName(name: string): boolean {
  // Most names, answered without normalising them (listings ask for every entry).
  if (PLAIN_NAME.test(name)) return name !== '.' && name !== '..';
  try {
    return name !== '' && driverPath('/' + name) === '/' + name;
  } catch {
    return false;
  }
}
