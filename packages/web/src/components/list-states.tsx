/**
 * What a list shows instead of its items: the error of a failed load with a retry button, and the
 * empty state (nothing yet, or nothing matching a search); and a loaded list with all of those.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { PageLoading } from './spinner.tsx';

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

/** A list query as far as its states need it. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch(): Promise<unknown>;
}

/** A list's body: loading, its query's error with a retry, the empty state (no rows), or the rows. */
export function ListBody({
  query,
  count,
  empty,
  children,
}: {
  query: ListQueryState;
  /** Rows loaded. */
  count: number;
  empty: { title: string; description: string; testId?: string };
  children: ReactNode;
}) {
  if (query.isPending) return <PageLoading />;
  if (query.isError && query.error)
    return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (count === 0) return <EmptyState {...empty} />;
  return children;
}

/** A query's items as a list: loading, its error with a retry, the empty state, or one row each. */
export function QueryList<T>({
  query,
  label,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  /** The list's accessible name. */
  label: string;
  empty: { title: string; description: string };
  children(item: T): ReactNode;
}) {
  return (
    <ListBody query={query} count={query.data?.length ?? 0} empty={empty}>
      <ul className="space-y-3" aria-label={label}>
        {query.data?.map(children)}
      </ul>
    </ListBody>
  );
}
