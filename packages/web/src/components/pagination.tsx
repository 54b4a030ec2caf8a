/** Previous / next page controls with "page x of y" and the total. */
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';

export function Pagination({
  page,
  totalPages,
  total,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  total: number;
  onPageChange(page: number): void;
}) {
  const { t } = useTranslation();
  return (
    <nav
      aria-label={t('common.pagination.label')}
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-fg-muted"
      data-testid="pagination"
    >
      <p>{t('common.pagination.total', { count: total })}</p>
      <div className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          {t('common.pagination.previous')}
        </Button>
        <span aria-live="polite" data-testid="page-indicator">
          {t('common.pagination.page', { page, pages: totalPages })}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={page >= totalPages}
          onClick={() => onPageChange(page + 1)}
        >
          {t('common.pagination.next')}
        </Button>
      </div>
    </nav>
  );
}
