/**
 * Admin module "dashboard" (docs/product.md §2), the admin's landing module: what the instance holds (cards
 * linking to their modules), storage used per config against its quota, new shares over the last 7
 * days, and the directory cache with buttons to clear it (all, or one mount).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, type StorageUsage } from '@cubby/shared';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';
import { useStorageConfigName } from '../../../lib/i18n/storage-config-name.ts';
import { useMounts } from '../mount-management/api/mounts.ts';
import { useCacheStats, useClearCache, useDashboardStats } from './api.ts';
import { WeekChart } from './week-chart.tsx';

export default function DashboardModule() {
  const { t } = useTranslation();
  const stats = useDashboardStats();
  return (
    <div className="space-y-6">
      <Card as="h1" title={t('admin.modules.dashboard')} description={t('admin.descriptions.dashboard')}>
        {stats.isPending ? (
          <PageLoading />
        ) : stats.isError ? (
          <LoadError error={stats.error} onRetry={() => void stats.refetch()} />
        ) : (
          <ul className="grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="stat-cards">
            {(['pastes', 'files'] as const).map((kind) => {
              const [total, live, ended] =
                kind === 'pastes'
                  ? [stats.data.totalPastes, stats.data.activePastes, stats.data.expiredPastes]
                  : [stats.data.totalFiles, stats.data.activeFiles, stats.data.expiredFiles];
              return (
                <StatCard
                  key={kind}
                  to={kind === 'pastes' ? '/admin/text-management' : '/admin/file-management'}
                  label={t(`admin.dashboard.cards.${kind}`)}
                  value={total}
                  detail={t('admin.dashboard.cards.liveEnded', { live, ended })}
                />
              );
            })}
            <StatCard
              to="/admin/storage-config"
              label={t('admin.dashboard.cards.storage')}
              // A size reads the same in every language (as elsewhere, marked as data, not text).
              value={<span data-user-content="">{formatBytes(stats.data.totalStorageUsed)}</span>}
              detail={t('admin.dashboard.cards.configs', { count: stats.data.totalS3Configs })}
            />
            <StatCard
              to="/admin/mount-management"
              label={t('admin.dashboard.cards.mounts')}
              value={stats.data.totalMounts}
            />
            <StatCard
              to="/admin/key-management"
              label={t('admin.dashboard.cards.keys')}
              value={stats.data.totalApiKeys}
            />
          </ul>
        )}
      </Card>
      {stats.data && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title={t('admin.dashboard.storage.title')}>
            <ul className="space-y-4" data-testid="storage-usage">
              {stats.data.s3Buckets.map((bucket) => (
                <StorageRow key={bucket.id} bucket={bucket} allUsed={stats.data.totalStorageUsed} />
              ))}
            </ul>
          </Card>
          <Card title={t('admin.dashboard.week.title')}>
            <WeekChart
              days={stats.data.lastWeekDays}
              pastes={stats.data.lastWeekPastes}
              files={stats.data.lastWeekFiles}
            />
          </Card>
        </div>
      )}
      <CacheCard />
      {stats.data && (
        <p className="text-xs text-fg-muted" data-testid="server-version">
          {t('admin.dashboard.version', { version: stats.data.version })}
        </p>
      )}
    </div>
  );
}

function StatCard({
  to,
  label,
  value,
  detail,
}: {
  to: string;
  label: string;
  value: ReactNode;
  detail?: string;
}) {
  return (
    <li>
      <Link
        to={to}
        className="block h-full rounded-lg border border-border bg-surface-sunken p-3 transition-colors hover:border-accent focus-visible:outline-2 focus-visible:outline-ring"
      >
        <span className="block text-xs text-fg-muted">{label}</span>
        <span className="mt-1 block text-2xl font-semibold text-fg tabular-nums">{value}</span>
        {detail && <span className="mt-1 block text-xs text-fg-muted">{detail}</span>}
      </Link>
    </li>
  );
}

/**
 * One storage's use: with a quota, a bar of the quota used (warning colours near the end); without
 * one there is no total to fill, so the bar is the storage's share of everything stored, in a
 * neutral colour, and says so.
 */
function StorageRow({ bucket, allUsed }: { bucket: StorageUsage; allUsed: number }) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const used = formatBytes(bucket.usedStorage);
  const name = storageName(bucket.name);
  const share = allUsed > 0 ? Math.round((bucket.usedStorage / allUsed) * 100) : 0;
  const meter =
    bucket.quotaPercent !== null
      ? {
          label: t('admin.dashboard.storage.meter', { name }),
          percent: bucket.quotaPercent,
          colour:
            bucket.quotaPercent >= 90 ? 'bg-danger' : bucket.quotaPercent >= 75 ? 'bg-warning' : 'bg-accent',
        }
      : { label: t('admin.dashboard.storage.shareMeter', { name }), percent: share, colour: 'bg-fg-muted' };
  return (
    <li>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="min-w-0 font-medium break-words text-fg" data-user-content="">
          {name}
        </span>
        <span className="text-fg-muted tabular-nums">
          {bucket.quotaBytes === null
            ? t('admin.dashboard.storage.usedNoQuota', { used, count: bucket.fileCount, share })
            : t('admin.dashboard.storage.usedOfQuota', {
                used,
                total: formatBytes(bucket.quotaBytes),
                count: bucket.fileCount,
              })}
        </span>
      </div>
      <div
        role="meter"
        aria-label={meter.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={meter.percent}
        aria-valuetext={`${meter.percent}%`}
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-surface-sunken"
      >
        <div className={`h-full rounded-full ${meter.colour}`} style={{ width: `${meter.percent}%` }} />
      </div>
    </li>
  );
}

function CacheCard() {
  const { t } = useTranslation();
  const cache = useCacheStats();
  const mounts = useMounts();
  const clear = useClearCache();
  const countsOf = (mountId: string) => {
    const counts = cache.data?.mounts?.find((m) => m.mount_id === mountId);
    return { entries: counts?.entries ?? 0, hits: counts?.hits ?? 0, misses: counts?.misses ?? 0 };
  };
  const run = (mountId?: string, name?: string) =>
    clear.mutate(mountId, {
      onSuccess: (result) =>
        showToast(
          name
            ? t('admin.dashboard.cache.clearedMount', { name, count: result.clearedCount })
            : t('admin.dashboard.cache.cleared', { count: result.clearedCount }),
          'success',
        ),
      onError: (error) => showToast(errorMessage(error), 'error'),
    });
  return (
    <Card
      title={t('admin.dashboard.cache.title')}
      description={t('admin.dashboard.cache.description')}
      actions={
        <Button
          variant="secondary"
          onClick={() => run()}
          disabled={clear.isPending}
          data-testid="clear-cache-all"
        >
          {t('admin.dashboard.cache.clearAll')}
        </Button>
      }
    >
      {cache.data?.directory && (
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="cache-stats">
          {(
            [
              ['entries', cache.data.directory.cacheSize],
              ['hits', cache.data.directory.hits],
              ['misses', cache.data.directory.misses],
              ['hitRate', `${Math.round(cache.data.directory.hitRate * 100)} %`],
            ] as const
          ).map(([key, value]) => (
            <div key={key}>
              <dt className="text-xs text-fg-muted">{t(`admin.dashboard.cache.${key}`)}</dt>
              <dd className="font-semibold text-fg tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {mounts.data && mounts.data.length > 0 && (
        <ul className="mt-4 divide-y divide-border" aria-label={t('admin.dashboard.cache.perMount')}>
          {mounts.data.map((mount) => (
            <li key={mount.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0 break-words">
                <span className="font-medium text-fg" data-user-content="">
                  {mount.name}
                </span>{' '}
                <span className="font-mono text-xs text-fg-muted" data-user-content="">
                  {mount.mount_path}
                </span>
                <span className="block text-xs text-fg-muted tabular-nums" data-testid="mount-cache-counts">
                  {t('admin.dashboard.cache.mountCounts', countsOf(mount.id))}
                </span>
              </span>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => run(mount.id, mount.name)}
                disabled={clear.isPending}
                aria-label={t('admin.dashboard.cache.clearMount', { name: mount.name })}
              >
                {t('admin.dashboard.cache.clear')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
