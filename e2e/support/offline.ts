/**
 * What the installable app keeps on the device, for the offline tests (pwa*.spec.ts): waiting for
 * the service worker, and everything in Cache Storage and IndexedDB read back from the page.
 */
import { expect, type Page } from '@playwright/test';
import { PRIVATE_API_CACHE } from '../../packages/web/src/lib/offline/api-cache-rules.ts';

/** Waits until the service worker controls the page. */
export async function waitForWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', undefined, {
    timeout: 20_000,
  });
}

export interface OfflineStorageDump {
  /** Request URLs stored in Cache Storage. */
  urls: string[];
  /** Every IndexedDB store's records, by `database/store`. */
  records: Record<string, unknown[]>;
  /** All of it as text: cache names, URLs, headers and bodies (not code or images), records. */
  text: string;
}

export { PRIVATE_API_CACHE };

/**
 * Waits until a logout has deleted the signed-in answers' cache. Asked with `caches.has` only:
 * `dumpOfflineStorage` opens every cache it lists, and opening one that is being deleted at that
 * moment makes it again (empty), so dump only after this.
 */
export async function waitForPrivateCacheGone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate((name) => caches.has(name), PRIVATE_API_CACHE)).toBe(false);
}

/** Everything in Cache Storage and IndexedDB (see `waitForPrivateCacheGone` after a logout). */
export async function dumpOfflineStorage(page: Page): Promise<OfflineStorageDump> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    const records: Record<string, unknown[]> = {};
    let text = '';
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        urls.push(request.url);
        const response = await cache.match(request);
        text += `\n${name} ${request.url} ${JSON.stringify([...request.headers])}`;
        if (response) {
          text += JSON.stringify([...response.headers]);
          if (!/\.(?:png|js|css)$/.test(new URL(request.url).pathname)) text += await response.text();
        }
      }
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        records[`${info.name}/${store}`] = all;
        text += `\nidb ${info.name}/${store} ${JSON.stringify(all)}`;
      }
      db.close();
    }
    return { urls, records, text };
  });
}

/** Puts records into the app's offline database (`cubby-offline`) with raw IndexedDB, from the page. */
export async function putOfflineRecords(
  page: Page,
  entries: { store: string; record: Record<string, unknown> }[],
): Promise<void> {
  await page.evaluate(async (items) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('cubby-offline');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    for (const { store, record } of items) {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(store, 'readwrite');
        tx.objectStore(store).put(record);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    }
    db.close();
  }, entries);
}
