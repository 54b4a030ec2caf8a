/**
 * Where the API lives. By default the same origin as the page (`/api`). An admin may point the UI
 * at another backend at run time (the environment switcher); that address is kept in localStorage
 * `vite-api-base-url` and must be an http(s) URL.
 */

export const API_BASE_STORAGE_KEY = 'vite-api-base-url';

/**
 * Validates a backend address typed by a user: http or https, no credentials, query or fragment.
 * Returns it without a trailing slash, or null when it is not acceptable.
 */
export function normalizeBackendUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** The backend address chosen with the environment switcher, or null for the default. */
export function getBackendOverride(): string | null {
  try {
    const stored = localStorage.getItem(API_BASE_STORAGE_KEY);
    return stored ? normalizeBackendUrl(stored) : null;
  } catch {
    return null;
  }
}

/** Stores (or with null, forgets) the backend address. */
export function setBackendOverride(url: string | null): void {
  if (url === null) localStorage.removeItem(API_BASE_STORAGE_KEY);
  else localStorage.setItem(API_BASE_STORAGE_KEY, url);
}

/** Base of every API call: the backend address plus `/api`. */
export function getApiBaseUrl(): string {
  return `${getBackendOverride() ?? ''}/api`;
}

/**
 * The Cubby server the UI talks to, as an address for use outside the app (commands to copy): the
 * backend address when one is chosen, else this page's origin.
 */
export function getServerBaseUrl(): string {
  return getBackendOverride() ?? window.location.origin;
}
