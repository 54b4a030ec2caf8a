/**
 * The header's offline mark (docs/product.md §2 "PWA prompts"): "Offline", and the time of the saved copy the
 * page shows, if any. A chunk precached by the service worker, loaded only while offline.
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { useNetworkStatus } from '../../lib/offline/network-status.ts';

export default function OfflineBadge() {
  const { t } = useTranslation();
  const copyAt = useNetworkStatus((state) => state.offlineCopyAt);
  const text =
    copyAt === null
      ? t('offline.badge')
      : t('offline.badgeCopy', { time: formatDateTime(new Date(copyAt).toISOString()) });
  return (
    <span
      role="status"
      data-testid="offline-badge"
      title={`${text}. ${t('offline.badgeTitle')}`}
      className="inline-flex shrink-0 items-center gap-1.5 truncate rounded-full bg-warning-soft px-2.5 py-1 text-xs font-medium text-warning-text sm:max-w-none"
    >
      <span aria-hidden="true" className="size-1.5 shrink-0 rounded-full bg-warning" />
      {/* Narrow screens: just "Offline" (the header has no room); the time is in the title. */}
      <span className="sm:hidden">{t('offline.badge')}</span>
      <span className="hidden truncate sm:inline">{text}</span>
    </span>
  );
}
