/** The header's offline mark (spec §2 "PWA prompts"): shown while offline, with the copy's time. */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { useNetworkStatus } from '../../lib/offline/network-status.ts';

export function OfflineBadge() {
  const { t } = useTranslation();
  const online = useNetworkStatus((state) => state.online);
  const copyAt = useNetworkStatus((state) => state.offlineCopyAt);
  if (online) return null;
  const text =
    copyAt === null
      ? t('offline.badge')
      : t('offline.badgeCopy', { time: formatDateTime(new Date(copyAt).toISOString()) });
  return (
    <span
      role="status"
      data-testid="offline-badge"
      title={t('offline.badgeTitle')}
      className="inline-flex max-w-40 items-center gap-1.5 truncate rounded-full bg-warning-soft px-2.5 py-1 text-xs font-medium text-warning-text sm:max-w-none"
    >
      <span aria-hidden="true" className="size-1.5 shrink-0 rounded-full bg-warning" />
      <span className="truncate">{text}</span>
    </span>
  );
}
