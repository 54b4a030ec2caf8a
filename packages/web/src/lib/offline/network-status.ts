/**
 * Whether the app can reach its server, and whether the page is showing answers the service worker
 * replayed from its cache (docs/product.md §4 "Online state"). The browser's online and offline
 * events decide, and so does the server itself: an answer replayed because the network failed means
 * the server is out of reach even where the browser still says it is online (a network that is up
 * but goes nowhere, a server that is down; Chromium also reports online to a page reloaded in an
 * offline tab), and a fresh answer means it is back. The API client reports both
 * (`noteOfflineCopy`, `noteServerAnswer`); the header's offline badge reads this store.
 */
import { create } from 'zustand';

interface NetworkState {
  online: boolean;
  /** When the oldest offline copy shown since the network went away was stored; null if none. */
  offlineCopyAt: number | null;
}

export const useNetworkStatus = create<NetworkState>()(() => ({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  offlineCopyAt: null,
}));

/** Whether the server is out of reach (the browser says offline, or the page shows a stored copy). */
export function isOffline(): boolean {
  return !useNetworkStatus.getState().online;
}

/**
 * Whether this page's server answers (for a chunk that failed to load while the browser says
 * online); when it does not, the app is marked offline.
 */
export async function serverReachable(timeoutMs = 5000): Promise<boolean> {
  try {
    await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    useNetworkStatus.setState({ online: false });
    return false;
  }
}

/** The page shows a copy stored at `cachedAt`: the server could not be reached. */
export function noteOfflineCopy(cachedAt: number): void {
  if (!Number.isFinite(cachedAt)) return;
  useNetworkStatus.setState((state) => ({
    online: false,
    offlineCopyAt: state.offlineCopyAt === null ? cachedAt : Math.min(state.offlineCopyAt, cachedAt),
  }));
}

/** The server answered (not a stored copy): online again, if the browser agrees. */
export function noteServerAnswer(): void {
  if (useNetworkStatus.getState().online || !navigator.onLine) return;
  useNetworkStatus.setState({ online: true, offlineCopyAt: null });
}

/** Follows the browser's online and offline events. */
export function startNetworkStatus(): void {
  const update = () =>
    useNetworkStatus.setState(navigator.onLine ? { online: true, offlineCopyAt: null } : { online: false });
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}
