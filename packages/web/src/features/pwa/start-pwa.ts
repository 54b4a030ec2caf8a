/**
 * Loaded after the first paint (main.tsx), so the paste view's first load stays small: registers
 * the service worker (`/sw.js`, built from src/sw.ts), turns a waiting new version into the update
 * prompt, and tidies the offline data (expired records; credentialed answers when signed out, and at every
 * logout or 401 from now on).
 */
import { Workbox } from 'workbox-window';
import { AUTH_STATE_CHANGED, useAuthStore, type AuthChangeDetail } from '../auth/index.ts';
import { clearCredentialedData, purgeExpiredOfflineData } from '../../lib/offline/offline-data.ts';
import { usePwaStore } from './pwa-store.ts';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function startPwa(): void {
  // Signed out (before this loaded, or in another tab): nothing stored for a session survives;
  // from now on, every logout or rejected credential clears it at once.
  if (useAuthStore.getState().authType === 'none') void clearCredentialedData();
  window.addEventListener(AUTH_STATE_CHANGED, (event) => {
    if (!(event as CustomEvent<AuthChangeDetail>).detail.isAuthenticated) void clearCredentialedData();
  });
  void purgeExpiredOfflineData();
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;

  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    usePwaStore.setState({
      applyUpdate: () => {
        usePwaStore.setState({ applyUpdate: null });
        // Reload only once the new version controls the page, i.e. after the user agreed.
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      },
    });
  });
  // Registration can fail (service workers blocked or disabled): the app then simply works online.
  workbox
    .register()
    .then((registration) => {
      if (registration) setInterval(() => void workbox.update().catch(() => undefined), UPDATE_CHECK_MS);
    })
    .catch(() => undefined);
}
