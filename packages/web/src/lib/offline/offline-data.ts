/**
 * Housekeeping of what the app keeps for offline use (docs/product.md §3, §4, §9): answers stored for a
 * signed-in user are deleted when the session ends (logout or a 401), and offline records older
 * than 7 days are purged. Failures (no Cache Storage, no IndexedDB) are ignored: nothing stored.
 */
import { PRIVATE_API_CACHE, isFresh } from './api-cache-rules.ts';
import { openOfflineDb } from './offline-db.ts';

/** Deletes every stored answer that needed credentials, and the directory listings. */
export async function clearCredentialedData(): Promise<void> {
  await Promise.allSettled([
    typeof caches === 'undefined' ? Promise.resolve() : caches.delete(PRIVATE_API_CACHE),
    openOfflineDb().then((db) => db.clear('directories')),
  ]);
  navigator.serviceWorker?.controller?.postMessage({ type: 'CLEAR_PRIVATE' });
}

/** Removes offline records (pastes, files, directories) stored more than 7 days before `now`. */
export async function purgeExpiredOfflineData(now = Date.now()): Promise<void> {
  try {
    const db = await openOfflineDb();
    for (const store of ['pastes', 'files', 'directories'] as const) {
      const tx = db.transaction(store, 'readwrite');
      let cursor = await tx.store.openCursor();
      while (cursor) {
        if (!isFresh(cursor.value.cachedAt, now)) await cursor.delete();
        cursor = await cursor.continue();
      }
      await tx.done;
    }
  } catch {
    // Nothing stored, or IndexedDB unavailable.
  }
  navigator.serviceWorker?.controller?.postMessage({ type: 'PURGE_EXPIRED' });
}
