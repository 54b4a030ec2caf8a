/**
 * Whether the browser is online, and whether the page is showing answers the service worker
 * replayed from its cache (spec §4 "Online/offline is tracked"). The API client reports each
 * replayed answer (`noteOfflineCopy`); the header's offline badge reads this store.
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

export function noteOfflineCopy(cachedAt: number): void {
  if (!Number.isFinite(cachedAt)) return;
  useNetworkStatus.setState((state) => ({
    offlineCopyAt: state.offlineCopyAt === null ? cachedAt : Math.min(state.offlineCopyAt, cachedAt),
  }));
}

/** Follows the browser's online and offline events. */
export function startNetworkStatus(): void {
  const update = () =>
    useNetworkStatus.setState(navigator.onLine ? { online: true, offlineCopyAt: null } : { online: false });
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}
