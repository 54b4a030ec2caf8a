/**
 * /pastes/public: the pastes their authors listed (docs/api.md, "Public pastes"), newest first,
 * each with its title (or link suffix), languages, size and date; a page of 20 at a time. While
 * the admin keeps the page off it says so.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Badge } from '../../components/badge.tsx';
import { Card } from '../../components/card.tsx';
import { EmptyState, LoadError } from '../../components/list-states.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { PageLoading } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { isApiError } from '../../lib/api/index.ts';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { PUBLIC_PAGE_SIZE, usePublicPastes } from './api.ts';

export default function PublicPastesPage() {
  const { t } = useTranslation();
  usePageTitle(t('pastes.publicPage.title'));
  const [page, setPage] = useState(1);
  const list = usePublicPastes(page);

  let body;
  if (list.isPending) body = <PageLoading />;
  else if (list.isError && isApiError(list.error) && list.error.status === 404)
    body = (
      <EmptyState
        title={t('pastes.publicPage.off.title')}
        description={t('pastes.publicPage.off.description')}
        testId="public-pastes-off"
      />
    );
  else if (list.isError) body = <LoadError error={list.error} onRetry={() => void list.refetch()} />;
  else if (list.data.items.length === 0)
    body = (
      <EmptyState
        title={t('pastes.publicPage.empty.title')}
        description={t('pastes.publicPage.empty.description')}
        testId="public-pastes-empty"
      />
    );
  else
    body = (
      <div className="space-y-4">
        <ul className="divide-y divide-border" aria-label={t('pastes.publicPage.listLabel')}>
          {list.data.items.map((paste) => (
            <li key={paste.slug} className="py-3" data-testid="public-paste">
              <Link
                to={paths.paste.getHref(paste.slug)}
                className="font-medium break-words text-accent-text underline-offset-2 hover:underline"
                data-user-content=""
              >
                {paste.title || paste.slug}
              </Link>
              <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted">
                {paste.languages.map((language) => (
                  <Badge key={language} tone="muted">
                    {t(`pastes.languages.${language}`)}
                  </Badge>
                ))}
                <span data-user-content="">{formatBytes(paste.size)}</span>
                <time dateTime={paste.created_at}>{formatDateTime(paste.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
        <Pagination
          page={page}
          total={list.data.total}
          totalPages={Math.max(1, Math.ceil(list.data.total / PUBLIC_PAGE_SIZE))}
          onPageChange={setPage}
        />
      </div>
    );

  return (
    <Card as="h1" title={t('pastes.publicPage.title')} description={t('pastes.publicPage.description')}>
      {body}
    </Card>
  );
}
