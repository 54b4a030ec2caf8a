/**
 * The frame of an admin share list: the search box, any filters beside it and the batch delete
 * button (while rows are selected), then the list itself — or its loading, error or empty state —
 * and the pages.
 */
import type { ReactNode } from 'react';
import { Button } from '../../components/button.tsx';
import { TrashIcon } from '../../components/icons.tsx';
import { ListBody, type ListQueryState } from '../../components/list-states.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { SearchField } from '../../components/search-field.tsx';
import type { ShareListState } from './use-share-list.ts';

/** The list query, as far as the frame needs it. */
interface ListQuery extends ListQueryState {
  /** Still the previous page or search while the new one loads. */
  isPlaceholderData: boolean;
}

export interface ShareListPanelProps {
  list: ShareListState;
  query: ListQuery;
  /** Rows on this page. */
  count: number;
  paging: { total: number; totalPages: number } | undefined;
  /** The search box; its id is also its test id. */
  search: { id: string; label: string; placeholder: string };
  /** Controls that narrow the list, shown beside the search box. */
  filters?: ReactNode;
  batchDelete: { label: string; testId: string; onClick(): void };
  empty: { title: string; description: string; testId: string };
  children: ReactNode;
}

export function ShareListPanel({
  list,
  query,
  count,
  paging,
  search,
  filters,
  batchDelete,
  empty,
  children,
}: ShareListPanelProps) {
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SearchField {...search} value={list.search} onChange={list.setSearch} testId={search.id} />
        {filters}
        {list.selected.size > 0 && (
          <Button variant="danger" onClick={batchDelete.onClick} data-testid={batchDelete.testId}>
            <TrashIcon className="size-4" />
            {batchDelete.label}
          </Button>
        )}
      </div>

      <ListBody query={query} count={count} empty={empty}>
        <div className={query.isPlaceholderData ? 'opacity-60' : ''}>{children}</div>
      </ListBody>
      {paging && paging.total > 0 && (
        <div className="mt-4 border-t border-border pt-4">
          <Pagination
            page={list.page}
            totalPages={paging.totalPages}
            total={paging.total}
            onPageChange={list.showPage}
          />
        </div>
      )}
    </>
  );
}
