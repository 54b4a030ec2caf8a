/**
 * What a list shows instead of its items: the error of a failed load with a retry button, and the
 * empty state (nothing yet, or nothing matching a search).
 */
import { useTranslation } from 'react-i18next';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

export function LoadError({ error, onRetry }: { error: Error; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="error">
      <p>{error.message}</p>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </Alert>
  );
}

export function EmptyState({
  title,
  description,
  testId,
}: {
  title: string;
  description: string;
  testId?: string;
}) {
  return (
    <div
      className="rounded-lg border border-dashed border-border-strong/60 px-4 py-10 text-center"
      data-testid={testId}
    >
      <p className="font-medium text-fg">{title}</p>
      <p className="mt-1 text-sm text-fg-muted">{description}</p>
    </div>
  );
}
