/** Entry point: i18n and theme first (so the first render is right), then auth, then the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n/index.ts';
import './index.css';
import { startTheme } from './lib/theme/theme-store.ts';
import { startAuth } from './features/auth/index.ts';
import { AppProviders } from './app/providers.tsx';

startTheme();
startAuth();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
