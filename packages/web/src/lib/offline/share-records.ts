/**
 * Pastes and file shares kept for offline reading (docs/product.md §3, §4): the service worker stores the
 * answer of `GET /api/paste/:slug` and `GET /api/public/files/:slug` it got from the network in the
 * offline database (`pastes`, `files`, by slug, with `cachedAt`), and answers the same request from
 * there for 7 days when the network fails. One place holds them: these answers never go to Cache
 * Storage.
 *
 * Only what anyone with the link reads without a password is kept: never a password-protected
 * share (its page before the password, nor the text after it: that answer comes from a POST), never
 * a paste whose last view this was, never a token, key, password or signed URL. A file share's view
 * and download links carry a short-lived token: they are kept as null (the page then links the
 * plain routes, which ask for a fresh link once online) — and no file body is ever kept.
 */
import { carriesSecret } from './api-cache-rules.ts';
import { openOfflineDb, readFreshRecord } from './offline-db.ts';

export type ShareStore = 'pastes' | 'files';

/** A stored share: the `data` of its API answer. */
export interface ShareRecord {
  slug: string;
  cachedAt: number;
  data: Record<string, unknown>;
}

const SHARE_PATHS: [RegExp, ShareStore][] = [
  [/^\/api\/paste\/([^/]+)$/, 'pastes'],
  [/^\/api\/public\/files\/([^/]+)$/, 'files'],
];

/** The store and slug a same-origin API path reads, or null if it is not a share read. */
export function shareOfPath(pathname: string): { store: ShareStore; slug: string } | null {
  for (const [pattern, store] of SHARE_PATHS) {
    const match = pattern.exec(pathname);
    if (!match?.[1]) continue;
    try {
      return { store, slug: decodeURIComponent(match[1]) };
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The part of a successful answer (the parsed JSON envelope) that may be kept offline, or null:
 * a paste with its text and no password that can still be read again, a file share without a
 * password; nothing with a credential in it.
 */
export function storableShare(store: ShareStore, body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== 'object') return null;
  const data = (body as { data?: unknown }).data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  // Signed links (a file share's) are dropped, not kept.
  const share = Object.fromEntries(
    Object.entries(data).map(([field, value]) => [
      field,
      typeof value === 'string' && carriesSecret(value) ? null : value,
    ]),
  );
  if (share.hasPassword !== false && store === 'pastes') return null;
  if (share.requires_password !== false && store === 'files') return null;
  if (store === 'pastes' && (typeof share.content !== 'string' || share.remainingViews === 0)) return null;
  return carriesSecret(share) ? null : share;
}

export async function rememberShare(
  store: ShareStore,
  slug: string,
  data: Record<string, unknown>,
  now = Date.now(),
): Promise<void> {
  await (await openOfflineDb()).put(store, { slug, cachedAt: now, data } satisfies ShareRecord);
}

export async function forgetShare(store: ShareStore, slug: string): Promise<void> {
  await (await openOfflineDb()).delete(store, slug);
}

/** The stored share if it is under 7 days old (an older one is deleted), else null. */
export async function recallShare(
  store: ShareStore,
  slug: string,
  now = Date.now(),
): Promise<ShareRecord | null> {
  const record = (await readFreshRecord(store, slug, now)) as ShareRecord | null;
  return record?.data && typeof record.data === 'object' ? record : null;
}
