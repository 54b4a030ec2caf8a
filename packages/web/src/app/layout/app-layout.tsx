/**
 * The page frame around every screen: skip link, header, main content, footer and overlays (the
 * install and update prompts, toasts).
 */
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/spinner.tsx';
import { Toaster } from '../../components/toast/toaster.tsx';
import { EnvSwitcher } from '../../features/env-switcher/env-switcher.tsx';
import { PwaPromptsSlot } from '../../features/pwa/index.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

export function AppLayout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        {t('nav.skipToContent')}
      </a>
      <Header />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8"
      >
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer>
        <EnvSwitcher />
      </Footer>
      <PwaPromptsSlot />
      <Toaster />
    </div>
  );
}
