/**
 * A bundle, /bundle/:slug (docs/api.md "Bundles"): its items with image previews, a download per item
 * and "Download all (zip)"; the password form when it is protected. Opening counts one visit and
 * answers a visit token; the token is kept for this tab (sessionStorage) so a reload counts nothing.
 */
import { type BundleView, formatBytes } from '@cubby/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { PageLoading } from '../../components/spinner.tsx';
import { api } from '../../lib/api/index.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { FileUnavailable, SharePasswordGate } from '../file-view/index.ts';

const base = (slug: string) => `/public/bundles/${encodeURIComponent(slug)}`;
const tokenKey = (slug: string) => `cubby.bundle-token.${slug}`;

function remember(view: BundleView): BundleView {
  if (view.token) sessionStorage.setItem(tokenKey(view.slug), view.token);
  return view;
}

export default function BundleViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageTitle(t('fileView.bundle.title'));
  const query = useQuery({
    queryKey: ['bundles', 'public', slug] as const,
    queryFn: async ({ signal }) => {
      const token = sessionStorage.getItem(tokenKey(slug));
      const url = `${base(slug)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
      return remember(await api.get<BundleView>(url, { signal, credential: null }));
    },
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const [unlocked, setUnlocked] = useState<BundleView | null>(null);

  if (query.isPending) return <PageLoading />;
  if (query.isError) return <FileUnavailable error={query.error} onRetry={() => void query.refetch()} />;
  const view = unlocked ?? query.data;
  if (view.requires_password) {
    return (
      <SharePasswordGate
        title={t('fileView.bundle.passwordTitle')}
        description={t('fileView.bundle.passwordDescription')}
        name={view.title}
        verify={(password) => api.post<BundleView>(`${base(slug)}/verify`, { password })}
        onUnlocked={(unlocked) => setUnlocked(remember(unlocked))}
      />
    );
  }
  return <BundleItems view={view} />;
}

function BundleItems({ view }: { view: BundleView }) {
  const { t } = useTranslation();
  const items = view.items ?? [];
  // The size is data (marked so), the rest wording.
  const facts = (
    <>
      {t('fileView.bundle.count', { count: items.length })} ·{' '}
      <span data-user-content="">{formatBytes(view.total_size ?? 0)}</span> ·{' '}
      {view.max_views > 0
        ? t('fileView.facts.viewsLimited', { views: view.views, max: view.max_views })
        : t('fileView.facts.views', { count: view.views })}
    </>
  );
  return (
    <div className="mx-auto max-w-3xl" data-testid="bundle-view">
      <Card
        title={view.title ? <span data-user-content="">{view.title}</span> : t('fileView.bundle.title')}
        as="h1"
        description={facts}
        actions={
          view.zip_url && items.length > 0 ? (
            <a href={view.zip_url} className={buttonClasses('primary')} data-testid="bundle-zip" download>
              {t('fileView.bundle.downloadAll')}
            </a>
          ) : null
        }
      >
        {items.length === 0 ? (
          <p className="text-sm text-fg-muted">{t('fileView.bundle.empty')}</p>
        ) : (
          <ul className="divide-y divide-border" data-testid="bundle-items">
            {items.map((item) => (
              <li key={item.n} className="flex flex-wrap items-center gap-3 py-3" data-testid="bundle-item">
                {item.type.startsWith('image/') && item.type !== 'image/svg+xml' && (
                  <img
                    src={item.preview_url}
                    alt={t('fileView.preview.imageAlt', { name: item.name })}
                    className="size-16 rounded-md border border-border object-cover"
                    loading="lazy"
                  />
                )}
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-fg" data-user-content="" title={item.name}>
                    {item.name}
                  </p>
                  <p className="text-xs text-fg-muted" data-user-content="">
                    {formatBytes(item.size)}
                  </p>
                </div>
                <a href={item.download_url} className={buttonClasses('secondary')} download>
                  {t('fileView.actions.download')}
                  <span className="sr-only" data-user-content="">
                    {' '}
                    {item.name}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
