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
import { startAuth } from './features/auth/index.ts';
import { startInstallPrompt } from './features/pwa/index.ts';
import { startNetworkStatus } from './lib/offline/network-status.ts';
import { AppProviders } from './app/providers.tsx';

const PWA_START_DELAY_MS = 2000;

startTheme();
startNetworkStatus();
startInstallPrompt();
// The service worker's code loads well after the first paint, so it never competes with a screen's
// own chunks (the paste view's budget, issue 4).
window.addEventListener(
  'load',
  () =>
    setTimeout(
      () => void import('./features/pwa/start-pwa.ts').then((m) => m.startPwa()),
      PWA_START_DELAY_MS,
    ),
  { once: true },
);

void i18nReady.then(() => {
  startAuth();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
});
