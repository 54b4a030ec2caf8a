/**
 * The frame of an admin module that manages a list (mounts, storage, keys, single sign-on, folder
 * rules, webhooks, upload requests): the card with the module's h1, its description and its "add"
 * button, and the list's three states before there are rows — loading, failed (with a retry) and
 * empty. The module draws its rows and puts its dialogs inside.
 */
import type { ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { PageLoading } from '../../../components/spinner.tsx';

export function ManagedListCard<T>({
  title,
  description,
  create,
  list,
  items,
  empty,
  rows,
  children,
}: {
  title: string;
  description: string;
  create: { label: string; testId: string; onClick(): void };
  /** The list's query (its error and its retry). */
  list: { error: Error | null; refetch(): unknown };
  /** The list, once loaded. */
  items: T[] | undefined;
  empty: { title: string; description: string; testId?: string };
  rows(items: T[]): ReactNode;
  /** Dialogs over the list (edit, confirm). */
  children?: ReactNode;
}) {
  return (
    <Card
      as="h1"
      title={title}
      description={description}
      actions={
        <Button onClick={create.onClick} data-testid={create.testId}>
          <PlusIcon className="size-4" />
          {create.label}
        </Button>
      }
    >
      {list.error ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : !items ? (
        <PageLoading />
      ) : items.length === 0 ? (
        <EmptyState title={empty.title} description={empty.description} testId={empty.testId} />
      ) : (
        rows(items)
      )}
      {children}
    </Card>
  );
}
