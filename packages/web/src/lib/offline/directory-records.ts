/**
 * Folder listings the signed-in user opened, kept for offline browsing (docs/product.md §3 `directories`, by
 * path, with `cachedAt`). For the Mount Explorer: call {@link rememberDirectory} with each listing
 * read from the server, and {@link recallDirectory} when reading it failed for want of a network.
 * They are deleted at logout or when the session is rejected (offline-data.ts) and after 7 days.
 * A listing carrying a token, key, password or signed URL is never kept.
 */
import { carriesSecret } from './api-cache-rules.ts';
import { noteOfflineCopy } from './network-status.ts';
import { openOfflineDb, readFreshRecord } from './offline-db.ts';

export interface DirectoryRecord<T = unknown> {
  path: string;
  cachedAt: number;
  listing: T;
}

/** Stores `listing` as the folder `path`'s; false (nothing stored) if it carries a credential. */
export async function rememberDirectory(path: string, listing: unknown, now = Date.now()): Promise<boolean> {
  if (carriesSecret(listing)) return false;
  await (
    await openOfflineDb()
  ).put('directories', { path, cachedAt: now, listing } satisfies DirectoryRecord);
  return true;
}

/**
 * The listing stored for `path` if under 7 days old, else null (an older one is deleted). A
 * listing found marks the page as showing an offline copy of that time (the header's offline badge).
 */
export async function recallDirectory<T = unknown>(
  path: string,
  now = Date.now(),
): Promise<DirectoryRecord<T> | null> {
  const record = (await readFreshRecord('directories', path, now)) as DirectoryRecord<T> | null;
  if (record) noteOfflineCopy(record.cachedAt);
  return record;
}
