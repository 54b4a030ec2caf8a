/**
 * Names and storage keys of uploaded files. The client names the file and may pick a sub-folder;
 * the server builds the key: `<folder>/<yyyy>/<mm>/<random id>-<safe name>`, or with
 * `ownFolder` (upload-direct's `original_filename`) `<folder>/<yyyy>/<mm>/<random id>/<safe name>`,
 * so the file keeps its own name as the key's last segment. The random id makes
 * every key unique (an upload never replaces another file's bytes); the safe name keeps the key
 * readable: Unicode stays, while separators, control characters, characters Windows and S3 tools
 * choke on, and leading dots are replaced, and the name is capped in UTF-8 bytes.
 */
import { randomString } from '../../lib/crypto.ts';
import { MAX_FILENAME_CHARS } from './uploads.schemas.ts';

/** Bytes of the name part of a key (after the id): file systems allow 255 per segment. */
const MAX_NAME_BYTES = 160;
/** Extensions up to this many characters are kept whole when a long name is cut. */
const MAX_EXTENSION_CHARS = 16;
const ID_LENGTH = 12;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Caps a name at `max` units of `measure` (characters or UTF-8 bytes), cutting the base name and
 * keeping a short extension, never splitting a character.
 */
function capName(name: string, max: number, measure: (char: string) => number): string {
  const total = (text: string) => Array.from(text).reduce((sum, char) => sum + measure(char), 0);
  if (total(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= MAX_EXTENSION_CHARS ? name.slice(dot) : '';
  let budget = max - total(ext);
  let base = '';
  for (const char of name.slice(0, name.length - ext.length)) {
    budget -= measure(char);
    if (budget < 0) break;
    base += char;
  }
  return base.trimEnd() + ext;
}

const oneChar = (): number => 1;
const utf8Bytes = (char: string): number => Buffer.byteLength(char);

/**
 * The file name a share shows: the last segment of what the client sent (browsers may send
 * "C:\fakepath\a.txt"), NFC, without control or bidi-override characters, trimmed, at most 255
 * characters. Null when nothing is left.
 */
export function displayName(raw: string): string | null {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const name = last.normalize('NFC').replace(CONTROL, '').trim();
  if (name === '' || name === '.' || name === '..') return null;
  return capName(name, MAX_FILENAME_CHARS, oneChar);
}

/**
 * A non-ASCII character that compatibility folding (NFKC) turns into ASCII a key name must not hold
 * (or, for dots, start or end with) — the full-width `／` or `．`, the two-dot leader `‥` — is
 * folded, so the rules below treat it as what another system may turn it into.
 */
const foldUnsafe = (char: string): string => {
  const folded = char.normalize('NFKC');
  return /^[/\\:*?"<>|%#.]+$/.test(folded) ? folded : char;
};

/** The name part of a storage key: safe on every driver and file system, readable, capped in bytes. */
export function safeKeyName(name: string): string {
  const safe = name
    .replace(/[^\p{ASCII}]/gu, foldUnsafe)
    .replace(CONTROL, '')
    .replace(/[/\\:*?"<>|%#]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  return capName(safe || 'file', MAX_NAME_BYTES, utf8Bytes);
}

/**
 * `<folder>/<yyyy>/<mm>/<id>-<safe name>` (with `ownFolder`: `…/<id>/<safe name>`) for an already
 * normalised folder ("/" or "/a/b").
 */
export function buildStorageKey(
  folder: string,
  filename: string,
  now: Date,
  options: { ownFolder?: boolean } = {},
): string {
  const year = String(now.getUTCFullYear());
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const id = randomString(ID_LENGTH, ID_ALPHABET);
  const prefix = folder === '/' ? '' : folder;
  return `${prefix}/${year}/${month}/${id}${options.ownFolder ? '/' : '-'}${safeKeyName(filename)}`;
}
