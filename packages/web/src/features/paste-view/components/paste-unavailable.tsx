/**
 * Why a paste cannot be shown: it does not exist (404), it expired or used up its views (410,
 * with the server's message saying which), or the request failed (with a retry).
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api/index.ts';

export function PasteUnavailable({ error, onRetry }: { error: Error; onRetry(): void }) {
  const { t } = useTranslation();
  const status = isApiError(error) ? error.status : 0;
  const gone = status === 410 || (isApiError(error) && error.code === 'GONE');
  const missing = status === 404;
  const title = gone
    ? t('pasteView.gone.title')
    : missing
      ? t('pasteView.notFound.title')
      : t('pasteView.failed.title');
  const description = gone
    ? t('pasteView.gone.description')
    : missing
      ? t('pasteView.notFound.description')
      : t('pasteView.failed.description');
  return (
    <div
      className="mx-auto max-w-xl"
      data-testid={gone ? 'paste-gone' : missing ? 'paste-not-found' : 'paste-failed'}
    >
      <Card title={title} as="h1" description={description}>
        {(gone || !missing) && error.message && (
          <p
            className="mb-4 rounded-md bg-surface-sunken px-3 py-2 text-sm text-fg"
            data-testid="paste-unavailable-reason"
            // The server's own words (already in the UI language), not a translation key.
            data-user-content=""
          >
            {error.message}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Link to={paths.home.getHref()} className={buttonClasses('primary')}>
            {t('pasteView.createOwn')}
          </Link>
          {!gone && !missing && (
            <Button variant="secondary" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
        </div>
      </Card>
    </div>
  );
}
