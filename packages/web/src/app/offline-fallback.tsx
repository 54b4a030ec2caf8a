/**
 * The offline fallback page (docs/product.md §2): shown in place of a screen whose code could not be loaded
 * while offline (a screen never opened online), with the 3-second warning toast (docs/product.md §8, §9).
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../components/button.tsx';
import { Card } from '../components/card.tsx';
import { showToast } from '../components/toast/toast-store.ts';
import { Toaster } from '../components/toast/toaster.tsx';
import { paths } from '../config/paths.ts';
import { usePageTitle } from '../lib/i18n/use-page-title.ts';
import { isOffline } from '../lib/offline/network-status.ts';

const OFFLINE_TOAST_MS = 3000;

export default function OfflineFallback() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle(t('offline.fallbackTitle'));
  useEffect(() => {
    showToast(t(isOffline() ? 'offline.toast' : 'offline.toastDefault'), 'warning', OFFLINE_TOAST_MS);
  }, [t]);
  return (
    <div className="mx-auto max-w-lg px-4 py-16" data-testid="offline-fallback">
      <Card title={t('offline.fallbackTitle')} as="h1" description={t('offline.fallbackText')}>
        <div className="flex flex-wrap gap-2">
          <Link to={paths.home.getHref()} className={buttonClasses('primary')} reloadDocument>
            {t('offline.home')}
          </Link>
          <Button variant="secondary" onClick={() => void navigate(-1)}>
            {t('offline.back')}
          </Button>
          <Button variant="secondary" onClick={() => window.location.reload()}>
            {t('offline.retry')}
          </Button>
        </div>
      </Card>
      {/* Shown in place of the whole layout (RouteErrorBoundary), so it brings its own toasts. */}
      <Toaster />
    </div>
  );
}
