/// <reference lib="webworker" />
/**
 * The service worker (docs/product.md §4 "Offline layer"; built by vite-plugin-pwa's injectManifest into
 * `dist/sw.js`).
 *
 * - Precache: the app shell (index.html, the entry chunk, styles, the core texts, icons). Every
 *   client route is answered with the precached index.html, so the app starts offline.
 * - Code chunks loaded while online are kept (cache first: their names are hashed), so a screen
 *   seen once opens offline; a screen never opened fails to load offline and the app shows its
 *   offline fallback page.
 * - API: network first. A paste or file share read is kept in the offline database
 *   (`lib/offline/share-records.ts`), the signed-in user's lists in Cache Storage
 *   (`lib/offline/api-cache-rules.ts`); when the network fails the copy is answered with status 200
 *   and `X-Cubby-Offline`/`X-Cubby-Cached-At`, for 7 days. A 401 deletes every answer stored for a
 *   credentialed request.
 * - A new version waits until the page sends `SKIP_WAITING` (the user agreed to reload).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CACHED_AT_HEADER, OFFLINE_HEADER } from './lib/offline/offline-headers.ts';
import {
  CHUNK_CACHE,
  PRIVATE_API_CACHE,
  PUBLIC_API_CACHE,
  carriesSecret,
  isCacheableApiPath,
  isCacheableContentType,
  isFresh,
} from './lib/offline/api-cache-rules.ts';
import {
  forgetShare,
  recallShare,
  rememberShare,
  shareOfPath,
  storableShare,
  type ShareStore,
} from './lib/offline/share-records.ts';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/(?:api|dav)(?:\/|$)/] }),
);

// Hashed chunks and styles: cache first, stored on first use.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === 'GET' &&
    /^\/assets\/[^/]+\.(?:js|css)$/.test(url.pathname),
  async ({ request }) => {
    const cache = await caches.open(CHUNK_CACHE);
    const hit = await cache.match(request);
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  },
);

/**
 * Counts the times the signed-in answers were deleted (logout, a 401). An answer to a request that
 * was sent before such a deletion is not kept: it would outlive the session it belonged to.
 */
let privateEpoch = 0;
let privateWork: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` on the cache `name`. Work on the signed-in answers' cache runs one job at a time, in
 * order with its deletion: `caches.open` re-creates a deleted cache, so a job that had checked the
 * epoch (or that the cache exists) before a logout must not open it after the logout deleted it.
 */
function onCache<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (name !== PRIVATE_API_CACHE) return work();
  const run = privateWork.then(work);
  privateWork = run.catch(() => undefined);
  return run;
}

function clearPrivate(): Promise<boolean> {
  privateEpoch++;
  return onCache(PRIVATE_API_CACHE, () => caches.delete(PRIVATE_API_CACHE));
}

async function storeApiAnswer(request: Request, response: Response, sentInEpoch: number): Promise<void> {
  if (response.status !== 200 || !isCacheableContentType(response.headers.get('content-type'))) return;
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (carriesSecret(body)) return;
  const credentialed = request.headers.has('Authorization');
  const headers = new Headers({
    'Content-Type': response.headers.get('content-type') ?? 'application/json',
    [CACHED_AT_HEADER]: String(Date.now()),
  });
  const language = request.headers.get('X-Cubby-Lang');
  if (language) headers.set('Content-Language', language);
  const name = credentialed ? PRIVATE_API_CACHE : PUBLIC_API_CACHE;
  await onCache(name, async () => {
    if (credentialed && sentInEpoch !== privateEpoch) return;
    const cache = await caches.open(name);
    // Stored under the bare URL: the request's headers (its Authorization) are never kept.
    await cache.put(new Request(request.url), new Response(text, { status: 200, headers }));
  });
}

async function replayApiAnswer(request: Request): Promise<Response | undefined> {
  const names = request.headers.has('Authorization')
    ? [PRIVATE_API_CACHE, PUBLIC_API_CACHE]
    : [PUBLIC_API_CACHE];
  for (const name of names) {
    const copy = await onCache(name, async () => {
      if (!(await caches.has(name))) return undefined;
      const cache = await caches.open(name);
      const hit = await cache.match(request.url);
      if (!hit) return undefined;
      if (!isFresh(Number(hit.headers.get(CACHED_AT_HEADER)), Date.now())) {
        await cache.delete(request.url);
        return undefined;
      }
      const headers = new Headers(hit.headers);
      headers.set(OFFLINE_HEADER, '1');
      return new Response(await hit.text(), { status: 200, headers });
    });
    if (copy) return copy;
  }
  return undefined;
}

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && request.method === 'GET' && isCacheableApiPath(url.pathname),
  async ({ request }) => {
    let response: Response;
    const sentInEpoch = privateEpoch;
    try {
      response = await fetch(request);
    } catch (error) {
      const copy = await replayApiAnswer(request);
      if (copy) return copy;
      throw error;
    }
    if (response.status === 401) {
      await clearPrivate();
    } else {
      await storeApiAnswer(request, response, sentInEpoch).catch(() => undefined);
    }
    return response;
  },
);

/** Keeps a share's answer in the offline database, or forgets the copy it may no longer keep. */
async function storeShareAnswer(
  share: { store: ShareStore; slug: string },
  response: Response,
): Promise<void> {
  if (response.status === 404 || response.status === 410) return forgetShare(share.store, share.slug);
  if (response.status !== 200 || !isCacheableContentType(response.headers.get('content-type'))) return;
  const data = storableShare(share.store, await response.clone().json());
  if (data) await rememberShare(share.store, share.slug, data);
  else await forgetShare(share.store, share.slug);
}

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && request.method === 'GET' && shareOfPath(url.pathname) !== null,
  async ({ request, url }) => {
    const share = shareOfPath(url.pathname)!;
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      const copy = await recallShare(share.store, share.slug).catch(() => null);
      if (!copy) throw error;
      const body = { code: 200, message: 'success', success: true, data: copy.data };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          [OFFLINE_HEADER]: '1',
          [CACHED_AT_HEADER]: String(copy.cachedAt),
        },
      });
    }
    await storeShareAnswer(share, response).catch(() => undefined);
    return response;
  },
);

/** Drops stored API answers older than 7 days. */
async function purgeExpired(): Promise<void> {
  for (const name of [PUBLIC_API_CACHE, PRIVATE_API_CACHE]) {
    await onCache(name, async () => {
      if (!(await caches.has(name))) return;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const hit = await cache.match(request);
        if (!hit || !isFresh(Number(hit.headers.get(CACHED_AT_HEADER)), Date.now()))
          await cache.delete(request);
      }
    });
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), purgeExpired()]));
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  const type = data && typeof data === 'object' ? (data as { type?: unknown }).type : undefined;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'CLEAR_PRIVATE') event.waitUntil(clearPrivate());
  if (type === 'PURGE_EXPIRED') event.waitUntil(purgeExpired());
});
