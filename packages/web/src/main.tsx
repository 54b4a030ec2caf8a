/**
 * Entry point: theme first, then — once the UI language's texts are loaded, so the first render
 * (and any message auth may show) is already translated — auth, then the app. Online/offline
 * tracking and the install prompt's listener start at once; the service worker is registered after
 * the first paint.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n/index.ts';
import './index.css';
import { startTheme } from './lib/theme/theme-store.ts';
import { AUTH_STATE_CHANGED, startAuth, type AuthChangeDetail } from './features/auth/index.ts';
import { startInstallPrompt } from './features/pwa/index.ts';
import { clearCredentialedData } from './lib/offline/offline-data.ts';
import { startNetworkStatus } from './lib/offline/network-status.ts';
import { AppProviders } from './app/providers.tsx';

startTheme();
startNetworkStatus();
startInstallPrompt();
// Logout or a rejected credential: nothing stored for the signed-in user survives (lib/offline).
window.addEventListener(AUTH_STATE_CHANGED, (event) => {
  if (!(event as CustomEvent<AuthChangeDetail>).detail.isAuthenticated) void clearCredentialedData();
});

void i18nReady.then(() => {
  startAuth();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
  // The service worker's code loads after the first paint (the paste view's budget, issue 4).
  const startPwa = () => void import('./features/pwa/start-pwa.ts').then((module) => module.startPwa());
  if (document.readyState === 'complete') setTimeout(startPwa, 0);
  else window.addEventListener('load', startPwa, { once: true });
});
