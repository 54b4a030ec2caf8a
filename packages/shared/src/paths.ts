/**
 * Path rules shared by server and web: one canonical form of user-supplied paths and one answer to
 * "is this path inside that base path" (docs/product.md §5 "Path permission").
 *
 * A path is decoded exactly once, at the edge, by `normalizePath`, and the value it returns is the
 * one that is both checked and used. So that no later layer can decode it into something else, the
 * canonical form is a fixed point: `normalizePath(normalizePath(p)) === normalizePath(p)`. Anything
 * that would decode differently a second time (`%252e`), escapes that hide separators or dots
 * (`%2f`, `%5c`, `%2e`), invalid or overlong UTF-8, lone surrogates, control characters, and
 * characters that Unicode compatibility folding turns into separators or dot segments (full-width
 * `／`, `＼`, `．．`) are refused rather than guessed at.
 */

const HEX_ESCAPE = /%[0-9a-fA-F]{2}/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether text holds NUL or another C0 control character, or DEL (never valid in a path or name). */
export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}
/** A surrogate that is not half of a pair (with the `u` flag a pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when `text` is well-formed Unicode: no lone surrogate (what JSON and URIs can smuggle in). */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Decodes each `%XX` sequence once; a `%` that does not start one stays literal ("100%.txt").
 * Null for invalid UTF-8 (overlong forms and encoded surrogates included) and for escapes of `/`,
 * `\` or `.`, which would let a segment hide a separator or a dot segment.
 */
function decodeOnce(raw: string): string | null {
  const bytes: number[] = [];
  const out: string[] = [];
  const flush = (): boolean => {
    if (bytes.length === 0) return true;
    try {
      out.push(new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes)));
    } catch {
      return false;
    }
    bytes.length = 0;
    return true;
  };
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === '%' ? raw.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      const byte = parseInt(hex, 16);
      if (byte === 0x2f || byte === 0x5c || byte === 0x2e) return null;
      bytes.push(byte);
      i += 2;
      continue;
    }
    if (!flush()) return null;
    out.push(raw[i]!);
  }
  return flush() ? out.join('') : null;
}

/** True for a segment that compatibility folding (NFKC) turns into a separator or a dot segment. */
function foldsToTraversal(segment: string): boolean {
  if (/^[\x20-\x7e]*$/.test(segment)) return false;
  const folded = segment.normalize('NFKC');
  return /[/\\]/.test(folded) || folded === '.' || folded === '..';
}

/**
 * The structural form of an already decoded path: backslashes as slashes, empty and `.` segments
 * dropped, `..` resolved. Null when it climbs above the root or holds a control character or a lone
 * surrogate. Nothing is decoded: storage drivers use this for names that may really contain `%41`.
 * The result starts with `/` and never ends with one (except the root itself).
 */
export function normalizeDecodedPath(path: string): string | null {
  if (typeof path !== 'string' || CONTROL.test(path) || !isWellFormed(path)) return null;
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return '/' + segments.join('/');
}

/**
 * The canonical form of a path received from a client (see the module comment): decoded once,
 * then normalised by `normalizeDecodedPath`. Null for a path that cannot be trusted.
 */
export function normalizePath(raw: string): string | null {
  if (typeof raw !== 'string' || !isWellFormed(raw)) return null;
  const decoded = decodeOnce(raw);
  // A value that would still decode is not a fixed point: a later decode could change it.
  if (decoded === null || HEX_ESCAPE.test(decoded)) return null;
  const path = normalizeDecodedPath(decoded);
  if (path === null || path.split('/').some(foldsToTraversal)) return null;
  return path;
}

/**
 * A path of the mounted file system (explorer, fs routes, WebDAV), as it arrives already decoded:
 * the query string's or the URL's one decoding is the only one, so `%` is a literal character here
 * ("100%41.txt" is a valid name). Backslashes count as separators, empty segments go; `.` and `..`
 * segments, control characters, lone surrogates and characters that compatibility folding turns into
 * separators or dot segments are refused (null) rather than resolved. The result starts with `/` and
 * ends without one (except the root).
 */
export function normalizeFsPath(path: string): string | null {
  if (typeof path !== 'string') return null;
  const segments = path.replace(/\\/g, '/').split('/');
  if (segments.some((s) => s === '.' || s === '..' || foldsToTraversal(s))) return null;
  return normalizeDecodedPath(path);
}

/** `path` equals `base` or lies inside it, by whole segments; both already normalised. */
export function isNormalizedPathWithin(base: string, path: string): boolean {
  if (base === '/') return true;
  return path === base || path.startsWith(base + '/');
}

/**
 * True when `requested` equals `basePath` or lies inside it, comparing whole segments
 * (`/team` does not contain `/team-b`). A base of `/` allows everything. Both are brought to their
 * canonical form first (a canonical path is unchanged by that); a path without one is never inside
 * anything. Callers use the canonical value they checked, never the raw one.
 */
export function isPathWithin(basePath: string, requested: string): boolean {
  const base = normalizePath(basePath);
  const path = normalizePath(requested);
  if (base === null || path === null) return false;
  return isNormalizedPathWithin(base, path);
}
