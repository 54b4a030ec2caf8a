/** The explorer's remembered choices on this device: list or grid, and the sort order. */
import { useCallback, useState } from 'react';
import type { SortOrder } from './explorer-model.ts';

export type ViewMode = 'list' | 'grid';

const VIEW_KEY = 'cubby.explorer.view';
const SORT_KEY = 'cubby.explorer.sort';
const SORT_KEYS = new Set(['name', 'size', 'modified', 'type']);

function read<T>(key: string, parse: (raw: string) => T | null, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return (raw !== null ? parse(raw) : null) ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
}

export function parseSort(raw: string): SortOrder | null {
  const [key, direction] = raw.split(':');
  if (!key || !SORT_KEYS.has(key) || (direction !== 'asc' && direction !== 'desc')) return null;
  return { key: key as SortOrder['key'], direction };
}

export function useExplorerPreferences() {
  const [view, setViewState] = useState<ViewMode>(() =>
    read<ViewMode>(VIEW_KEY, (raw) => (raw === 'grid' || raw === 'list' ? raw : null), 'list'),
  );
  const [sort, setSortState] = useState<SortOrder>(() =>
    read(SORT_KEY, parseSort, { key: 'name', direction: 'asc' }),
  );
  const setView = useCallback((next: ViewMode) => {
    setViewState(next);
    write(VIEW_KEY, next);
  }, []);
  /** Sorting by the current column flips its direction; another column starts ascending. */
  const sortBy = useCallback((key: SortOrder['key']) => {
    setSortState((current) => {
      const next: SortOrder =
        current.key === key
          ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
          : { key, direction: 'asc' };
      write(SORT_KEY, `${next.key}:${next.direction}`);
      return next;
    });
  }, []);
  return { view, setView, sort, sortBy };
}
