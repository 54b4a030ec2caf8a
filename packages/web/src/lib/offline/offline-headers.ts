/**
 * How the service worker marks an answer it replayed from its offline copy: the headers of
 * docs/product.md §4 "Offline layer". A module of its own: the API client (first load) needs only
 * these two names, not the caching rules.
 */

/** Set on a replayed answer: when it was stored (milliseconds since the epoch). */
export const CACHED_AT_HEADER = 'X-Cubby-Cached-At';
/** Set (to "1") on an answer the worker replayed from its offline copy because the network failed. */
export const OFFLINE_HEADER = 'X-Cubby-Offline';
