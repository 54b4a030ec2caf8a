/** The last three shares made on this device (docs/product.md §9), each with its link to open and copy. */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Card } from '../../../components/card.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { filePageUrl } from '../../file-view/index.ts';
import { useUploadQueue } from '../upload-queue.ts';

export function RecentUploads() {
  const { t } = useTranslation();
  const recent = useUploadQueue((state) => state.recent);
  if (recent.length === 0) return null;
  return (
    <Card title={t('upload.recent.title')}>
      <ul className="space-y-3" data-testid="recent-uploads">
        {recent.map((upload) => (
          <li
            key={upload.slug}
            className="flex items-start justify-between gap-2"
            data-testid="recent-upload"
          >
            <div className="min-w-0">
              <Link
                to={paths.file.getHref(upload.slug)}
                className="block truncate text-sm font-medium text-accent-text underline-offset-2 hover:underline"
                data-user-content=""
                title={upload.filename}
              >
                {upload.filename}
              </Link>
              <p className="text-xs text-fg-muted">
                {t('upload.recent.meta', {
                  size: formatBytes(upload.size),
                  date: formatDateTime(upload.created_at),
                })}
              </p>
            </div>
            <CopyButton text={filePageUrl(upload.slug)} label={t('upload.item.copyLink')} variant="ghost">
              <span className="sr-only">{t('upload.item.copyLink')}</span>
            </CopyButton>
          </li>
        ))}
      </ul>
    </Card>
  );
}
