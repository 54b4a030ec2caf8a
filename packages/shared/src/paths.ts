/**
 * Path rules shared by server and web: one normalisation of user-supplied paths and one answer to
 * "is this path inside that base path" (spec §5 "Path permission").
 */

/** Decodes each valid `%XX` sequence once; a `%` that does not start one stays literal ("100%.txt"). */
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
      bytes.push(parseInt(hex, 16));
      i += 2;
      continue;
    }
    if (!flush()) return null;
    out.push(raw[i]!);
  }
  return flush() ? out.join('') : null;
}

/**
 * Normalises a path as received from a client: decodes percent-escapes once, turns backslashes into
 * slashes, removes empty and `.` segments and resolves `..`. Returns `null` for a path that cannot be
 * trusted: one holding NUL or a control character, invalid UTF-8 escapes, or one that climbs above
 * the root. The result always starts with `/` and never ends with one (except the root itself).
 */
export function normalizePath(raw: string): string | null {
  const decoded = decodeOnce(raw);
  // eslint-disable-next-line no-control-regex
  if (decoded === null || /[\u0000-\u001f\u007f]/.test(decoded)) return null;
  const segments: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
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
 * True when `requested` equals `basePath` or lies inside it, comparing whole segments
 * (`/team` does not contain `/team-b`). A base of `/` allows everything. Both paths are normalised
 * first; a path that does not normalise is never inside anything.
 */
export function isPathWithin(basePath: string, requested: string): boolean {
  const base = normalizePath(basePath);
  const path = normalizePath(requested);
  if (base === null || path === null) return false;
  if (base === '/') return true;
  return path === base || path.startsWith(base + '/');
}
