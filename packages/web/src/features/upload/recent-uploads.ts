/**
 * The last few shares made on this device (docs/product.md §9: 3), kept in localStorage for the
 * upload page.
 */

export interface RecentUpload {
  slug: string;
  filename: string;
  size: number;
  /** ISO date-time. */
  created_at: string;
}

export const RECENT_STORAGE_KEY = 'cubby.upload.recent';
export const RECENT_LIMIT = 3;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function isRecent(value: unknown): value is RecentUpload {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.slug === 'string' &&
    typeof r.filename === 'string' &&
    typeof r.size === 'number' &&
    typeof r.created_at === 'string'
  );
}

export function readRecentUploads(
  storage: StorageLike | undefined = globalThis.localStorage,
): RecentUpload[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(RECENT_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecent).slice(0, RECENT_LIMIT) : [];
  } catch {
    return [];
  }
}

/** Puts `upload` first (once) and keeps the newest {@link RECENT_LIMIT}; returns the new list. */
export function addRecentUpload(
  upload: RecentUpload,
  storage: StorageLike | undefined = globalThis.localStorage,
): RecentUpload[] {
  const list = [upload, ...readRecentUploads(storage).filter((r) => r.slug !== upload.slug)].slice(
    0,
    RECENT_LIMIT,
  );
  try {
    storage?.setItem(RECENT_STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Not remembered; nothing else depends on it.
  }
  return list;
}
