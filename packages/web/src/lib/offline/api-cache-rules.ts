/**
 * Which API answers the service worker may keep for offline use (docs/product.md §4 "Offline layer", §9), as
 * plain functions so unit tests cover them and the worker and the page share one copy.
 *
 * Kept in Cache Storage: successful JSON answers to GET of the signed-in user's text and file lists.
 * A paste or a file share read goes to the offline database instead (share-records.ts), and so do
 * the folder listings the Mount Explorer keeps (directory-records.ts): one place for each kind of
 * record. Never kept: anything else
 * (system, health, version, test hooks, downloads, views, previews, settings, keys…), non-GET,
 * non-JSON bodies (media, PDF, octet-stream) and any answer carrying a token, a key, a password or
 * a signed URL, and no text of a password-protected paste. Answers to requests that carried credentials go to a cache of their own, which is
 * deleted on logout or a 401.
 */

export const OFFLINE_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Answers to anonymous requests. */
export const PUBLIC_API_CACHE = 'cubby-api-public-v1';
/** Answers to requests sent with an admin token or an API key: deleted on logout or a 401. */
export const PRIVATE_API_CACHE = 'cubby-api-private-v1';
/** Code chunks loaded at run time (hashed, so never stale). */
export const CHUNK_CACHE = 'cubby-chunks-v1';

const CACHEABLE_PATHS: RegExp[] = [/^\/api\/(?:admin|user)\/pastes$/, /^\/api\/(?:admin|user)\/files$/];

/** Whether a GET of this same-origin path (no query) may be kept at all. */
export function isCacheableApiPath(pathname: string): boolean {
  return CACHEABLE_PATHS.some((pattern) => pattern.test(pathname));
}

const SECRET_FIELD = /pass(?:word)?|token|secret|api_?key|^key$|access_?key|credential|signature/i;
const SECRET_IN_TEXT = /[?&](?:token|sign|signature|x-amz-signature|x-amz-credential|key|password)=/i;

/**
 * Whether a parsed JSON answer carries a credential: a field named like a password, token, key or
 * secret with a non-empty string value, a string holding a signed or tokenised URL, or the text of a
 * password-protected paste.
 */
export function carriesSecret(value: unknown, depth = 0): boolean {
  if (depth > 20) return true;
  if (typeof value === 'string') return SECRET_IN_TEXT.test(value);
  if (Array.isArray(value)) return value.some((item) => carriesSecret(item, depth + 1));
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // The text of a password-protected paste (an admin list's preview) is kept behind its password.
    const locked = record.has_password === true || record.requires_password === true;
    if (
      locked &&
      ['content', 'content_preview'].some(
        (field) => typeof record[field] === 'string' && record[field] !== '',
      )
    )
      return true;
    for (const [field, item] of Object.entries(value)) {
      if (SECRET_FIELD.test(field) && typeof item === 'string' && item !== '') return true;
      if (carriesSecret(item, depth + 1)) return true;
    }
  }
  return false;
}

/** Whether an answer's content type may be kept (JSON only: never media, PDF or octet-stream). */
export function isCacheableContentType(contentType: string | null): boolean {
  return contentType !== null && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim());
}

/** Whether a stored answer is still fresh enough to replay. */
export function isFresh(cachedAt: number, now: number): boolean {
  return Number.isFinite(cachedAt) && now - cachedAt >= 0 && now - cachedAt < OFFLINE_CACHE_MAX_AGE_MS;
}
