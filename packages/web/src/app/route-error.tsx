/** Shown when a screen fails to render or its code cannot be loaded. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../components/button.tsx';
import { Card } from '../components/card.tsx';
import { paths } from '../config/paths.ts';
import { usePageTitle } from '../lib/i18n/use-page-title.ts';

export function RouteError() {
  const { t } = useTranslation();
  usePageTitle(t('titles.error'));
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card title={t('routeError.heading')} as="h1" description={t('routeError.description')}>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => window.location.reload()}>{t('routeError.retry')}</Button>
          <Link to={paths.home.getHref()} className={buttonClasses('secondary')} reloadDocument>
            {t('routeError.home')}
          </Link>
        </div>
      </Card>
    </div>
  );
}
