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
import { ListBody, type ListQueryState } from '../../../components/list-states.tsx';

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
  /** The list's query (its states). */
  list: ListQueryState;
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
      <ListBody query={list} count={items?.length ?? 0} empty={empty}>
        {items && rows(items)}
      </ListBody>
      {children}
    </Card>
  );
}
