/**
 * Why a file share cannot be shown: unknown link (404), expired or used up (410, the server's
 * message says which), or the request failed (with a retry).
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api/index.ts';

type Reason = 'gone' | 'notFound' | 'failed';

export function FileUnavailable({ error, onRetry }: { error: Error; onRetry(): void }) {
  const { t } = useTranslation();
  const status = isApiError(error) ? error.status : 0;
  const reason: Reason = status === 410 ? 'gone' : status === 404 ? 'notFound' : 'failed';
  return (
    <div className="mx-auto max-w-xl" data-testid={`file-${reason === 'notFound' ? 'not-found' : reason}`}>
      <Card title={t(`fileView.${reason}.title`)} as="h1" description={t(`fileView.${reason}.description`)}>
        {reason !== 'notFound' && error.message && (
          <p
            className="mb-4 rounded-md bg-surface-sunken px-3 py-2 text-sm text-fg"
            data-testid="file-unavailable-reason"
            // The server's own words (already in the UI language).
            data-user-content=""
          >
            {error.message}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Link to={paths.upload.getHref()} className={buttonClasses('primary')}>
            {t('fileView.shareOwn')}
          </Link>
          {reason === 'failed' && (
            <Button variant="secondary" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
        </div>
      </Card>
    </div>
  );
}
