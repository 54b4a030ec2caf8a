/**
 * The state of an admin share list (file shares, text shares): the page, the debounced search and
 * the selected rows. A new search starts on its first page, and changing pages or deleting rows
 * clears the selection, so a batch delete only ever covers rows the user can see.
 */
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import type { ShareSelection } from './selectable-share-list.tsx';
import { pageAfterRemoval, withRow } from './share-selection.ts';

const SEARCH_DELAY_MS = 300;
const NONE: ReadonlySet<string> = new Set();

export function useShareList() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [selected, setSelected] = useState<ReadonlySet<string>>(NONE);

  const [shownQuery, setShownQuery] = useState(query);
  if (shownQuery !== query) {
    // A new search starts on its first page with nothing selected.
    setShownQuery(query);
    setPage(1);
    setSelected(NONE);
  }

  const showPage = (next: number) => {
    setPage(next);
    setSelected(NONE);
  };

  return {
    page,
    /** What the box shows; `query` is what was searched for (after the user paused typing). */
    search,
    setSearch,
    query,
    searching: query.trim() !== '',
    selected,
    /** The selection boxes of a list showing these rows (the page). */
    selection: (rows: readonly { id: string }[]): ShareSelection => ({
      selected,
      onToggle: (id, on) => setSelected((current) => withRow(current, id, on)),
      onToggleAll: (on) => setSelected(on ? new Set(rows.map((row) => row.id)) : NONE),
    }),
    showPage,
    /** After `removed` of the `shown` rows were deleted: back a page when this one emptied. */
    afterRemoval: (removed: number, shown: number) => showPage(pageAfterRemoval(page, removed, shown)),
  };
}

export type ShareListState = ReturnType<typeof useShareList>;
