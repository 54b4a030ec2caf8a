/**
 * Entry point: theme first, then — once the UI language's texts are loaded, so the first render
 * (and any message auth may show) is already translated — auth, then the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n/index.ts';
import './index.css';
import { startTheme } from './lib/theme/theme-store.ts';
import { startAuth } from './features/auth/index.ts';
import { AppProviders } from './app/providers.tsx';

startTheme();

void i18nReady.then(() => {
  startAuth();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
});
