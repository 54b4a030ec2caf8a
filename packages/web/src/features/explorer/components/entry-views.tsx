/**
 * The folder's entries as a list (columns name, size, modified, type; sortable) or a grid of tiles.
 * Both are ARIA grids that keep the keyboard focus on the grid itself and point at the current
 * entry with `aria-activedescendant`; only the rows on screen are rendered (a folder of 10,000
 * entries scrolls like one of 10), against the window's scroll so the page scrolls as usual.
 */
import type { FsListItem } from '@cubby/shared';
import { formatBytes, extensionOf } from '@cubby/shared';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MoreIcon } from '../../../components/icons.tsx';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import type { FsTree } from '../api/fs-api.ts';
import type { SortKey, SortOrder } from '../explorer-model.ts';
import type { ClickMode, Selection } from '../selection.ts';
import { EntryIcon, EntryThumbnail } from './entry-icon.tsx';
import { RenameInput } from './rename-input.tsx';
import { SELECTION_BAR_HEIGHT } from './selection-bar.tsx';

export interface EntriesViewProps {
  tree: FsTree;
  items: readonly FsListItem[];
  selection: Selection;
  /** Base of the element ids (rows are `${id}-${index}`). */
  id: string;
  label: string;
  renaming: string | null;
  onRename(item: FsListItem, name: string): void;
  onRenameEnd(): void;
  onSelect(item: FsListItem, mode: ClickMode): void;
  onOpen(item: FsListItem): void;
  onMenu(item: FsListItem, at: { x: number; y: number }): void;
  /** Keys on the grid; `columns` is how many entries one row holds (arrows up/down move by it). */
  onKeyDown(event: KeyboardEvent, columns: number): void;
}

/** The distance from the top of the document to an element, kept up to date as the page changes. */
function useOffsetTop(element: React.RefObject<HTMLElement | null>) {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const box = element.current?.getBoundingClientRect();
      if (box) setOffset(box.top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [element]);
  return offset;
}

/**
 * The focused entry's index, scrolled into view when the keys moved the focus there — never when the
 * pointer chose it (`pointedAt`, on pointer down): the entry under the pointer stays put, so the
 * second click of a double click lands on it (the virtualizer aligns the last entry with the end of
 * the page, which moved it away by the height of what follows the list). A new `layout` (the
 * grid's columns) scrolls to it again.
 */
function useFocusIndex(props: EntriesViewProps, scrollTo: (index: number) => void, layout = 0) {
  const focus = props.selection.focus;
  const focusIndex = focus === null ? -1 : props.items.findIndex((item) => item.path === focus);
  const pointed = useRef<string | null>(null);
  const previous = useRef(focus);
  const scroll = useRef(scrollTo);
  useLayoutEffect(() => {
    scroll.current = scrollTo;
  });
  useEffect(() => {
    const byPointer = focus !== previous.current && focus === pointed.current;
    previous.current = focus;
    pointed.current = null;
    if (focusIndex >= 0 && !byPointer) scroll.current(focusIndex);
  }, [focus, focusIndex, layout]);
  const pointedAt = (path: string) => {
    pointed.current = path;
  };
  return { focusIndex, pointedAt };
}

/** How a click selects: Shift for a range, Ctrl/Cmd to toggle one, else just this one. */
export function clickMode(event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): ClickMode {
  if (event.shiftKey) return 'range';
  return event.ctrlKey || event.metaKey ? 'toggle' : 'replace';
}

/** Opens an entry on a double click, or on one tap of a touch screen; `pointedAt` hears every press. */
function openHandlers(props: EntriesViewProps, item: FsListItem, pointedAt: (path: string) => void) {
  let touch = false;
  return {
    onPointerDown: (event: React.PointerEvent) => {
      touch = event.pointerType === 'touch';
      pointedAt(item.path);
    },
    onClick: (event: MouseEvent) => {
      if (touch && !event.shiftKey && !event.ctrlKey && !event.metaKey) props.onOpen(item);
      else props.onSelect(item, clickMode(event));
    },
    onDoubleClick: () => props.onOpen(item),
    onContextMenu: (event: MouseEvent) => {
      event.preventDefault();
      props.onMenu(item, { x: event.clientX, y: event.clientY });
    },
  };
}

function SelectBox({
  item,
  selected,
  props,
}: {
  item: FsListItem;
  selected: boolean;
  props: EntriesViewProps;
}) {
  const { t } = useTranslation();
  return (
    <input
      type="checkbox"
      tabIndex={-1}
      checked={selected}
      aria-label={t('explorer.select', { name: item.name })}
      className="size-4 accent-[var(--accent)]"
      onClick={(event) => {
        event.stopPropagation();
        props.onSelect(item, event.shiftKey ? 'range' : 'toggle');
      }}
      onChange={() => {}}
      data-testid="entry-checkbox"
    />
  );
}

function NameText({ item, props }: { item: FsListItem; props: EntriesViewProps }) {
  if (props.renaming === item.path) {
    return (
      <RenameInput
        name={item.name}
        isDirectory={item.isDirectory}
        onCommit={(name) => props.onRename(item, name)}
        onCancel={props.onRenameEnd}
      />
    );
  }
  return (
    <span className="truncate" data-testid="entry-name" data-user-content="">
      {item.name}
    </span>
  );
}

/** A file's size and modification time: facts about the user's data, not wording. */
export function FileSize({ bytes }: { bytes: number }) {
  return <span data-user-content="">{formatBytes(bytes)}</span>;
}

export function Modified({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

const ROW_HEIGHT = 52;

function SortHeader({
  column,
  sort,
  onSort,
  className = '',
}: {
  column: SortKey;
  sort: SortOrder;
  onSort(key: SortKey): void;
  className?: string;
}) {
  const { t } = useTranslation();
  const active = sort.key === column;
  return (
    <div
      role="columnheader"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={className}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded px-1 py-0.5 text-xs font-medium text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
        data-testid={`sort-${column}`}
      >
        {t(`explorer.columns.${column}`)}
        <span aria-hidden="true" className="w-3 text-center">
          {active ? (sort.direction === 'asc' ? '↑' : '↓') : ''}
        </span>
      </button>
    </div>
  );
}

export function EntryList(props: EntriesViewProps & { sort: SortOrder; onSort(key: SortKey): void }) {
  const { t } = useTranslation();
  const { items, selection, id } = props;
  const body = useRef<HTMLDivElement>(null);
  const offset = useOffsetTop(body);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: offset,
    // An entry scrolled to (keys) stays clear of the selection bar stuck to the top of the window.
    scrollPaddingStart: SELECTION_BAR_HEIGHT,
  });
  const { focusIndex, pointedAt } = useFocusIndex(props, (index) =>
    virtualizer.scrollToIndex(index, { align: 'auto' }),
  );

  return (
    <div
      role="grid"
      aria-label={props.label}
      aria-multiselectable="true"
      aria-rowcount={items.length + 1}
      aria-activedescendant={focusIndex >= 0 ? `${id}-${focusIndex}` : undefined}
      tabIndex={0}
      onKeyDown={(event) => props.onKeyDown(event, 1)}
      className="rounded-lg border border-border bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      data-testid="entry-list"
    >
      <div role="rowgroup">
        <div
          role="row"
          aria-rowindex={1}
          className="grid grid-cols-[2rem_minmax(0,1fr)_2.5rem] items-center gap-2 border-b border-border px-3 py-1.5 sm:grid-cols-[2rem_minmax(0,1fr)_6rem_11rem_5rem_2.5rem]"
        >
          <div role="columnheader">
            <span className="sr-only">{t('explorer.columns.select')}</span>
          </div>
          <SortHeader column="name" sort={props.sort} onSort={props.onSort} />
          <SortHeader
            column="size"
            sort={props.sort}
            onSort={props.onSort}
            className="hidden text-right sm:block"
          />
          <SortHeader column="modified" sort={props.sort} onSort={props.onSort} className="hidden sm:block" />
          <SortHeader column="type" sort={props.sort} onSort={props.onSort} className="hidden sm:block" />
          <div role="columnheader">
            <span className="sr-only">{t('explorer.columns.actions')}</span>
          </div>
        </div>
      </div>
      <div ref={body} role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          const selected = selection.selected.has(item.path);
          const focused = row.index === focusIndex;
          return (
            <div
              key={item.path}
              id={`${id}-${row.index}`}
              role="row"
              aria-rowindex={row.index + 2}
              aria-selected={selected}
              data-testid="entry-row"
              data-path={item.path}
              data-focused={focused || undefined}
              {...openHandlers(props, item, pointedAt)}
              style={{
                height: ROW_HEIGHT,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              }}
              className={`absolute inset-x-0 top-0 grid cursor-default grid-cols-[2rem_minmax(0,1fr)_2.5rem] items-center gap-2 border-b border-border/60 px-3 text-sm select-none sm:grid-cols-[2rem_minmax(0,1fr)_6rem_11rem_5rem_2.5rem] ${
                selected ? 'bg-accent-soft' : 'hover:bg-surface-sunken'
              } ${focused ? 'outline-2 -outline-offset-2 outline-ring' : ''}`}
            >
              <div role="gridcell">
                <SelectBox item={item} selected={selected} props={props} />
              </div>
              <div role="gridcell" className="flex min-w-0 items-center gap-2.5">
                <EntryIcon item={item} />
                <div className="min-w-0 flex-1">
                  <div className="flex min-w-0 text-fg">
                    <NameText item={item} props={props} />
                  </div>
                  <div className="truncate text-xs text-fg-muted sm:hidden">
                    {item.isDirectory ? t('explorer.kind.folder') : <FileSize bytes={item.size} />}
                    {item.modified && (
                      <>
                        {' · '}
                        <Modified iso={item.modified} />
                      </>
                    )}
                  </div>
                </div>
              </div>
              <div role="gridcell" className="hidden text-right text-fg-muted tabular-nums sm:block">
                {item.isDirectory ? '—' : <FileSize bytes={item.size} />}
              </div>
              <div role="gridcell" className="hidden truncate text-fg-muted sm:block">
                {item.modified ? <Modified iso={item.modified} /> : '—'}
              </div>
              <div role="gridcell" className="hidden truncate text-fg-muted sm:block">
                {item.isDirectory ? (
                  t('explorer.kind.folder')
                ) : (
                  <span data-user-content="" className="uppercase">
                    {extensionOf(item.name) || '—'}
                  </span>
                )}
              </div>
              <div role="gridcell" className="flex justify-end">
                <button
                  type="button"
                  tabIndex={-1}
                  aria-label={t('explorer.actionsFor', { name: item.name })}
                  title={t('explorer.actionsFor', { name: item.name })}
                  className="rounded-md p-1.5 text-fg-muted hover:bg-surface-sunken hover:text-fg"
                  onClick={(event) => {
                    event.stopPropagation();
                    const box = event.currentTarget.getBoundingClientRect();
                    props.onMenu(item, { x: box.left, y: box.bottom + 4 });
                  }}
                  onDoubleClick={(event) => event.stopPropagation()}
                  data-testid="entry-more"
                >
                  <MoreIcon className="size-4" />
                </button>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

const TILE_MIN_WIDTH = 136;
const TILE_HEIGHT = 156;

export function EntryGrid(props: EntriesViewProps) {
  const { items, selection, id } = props;
  const body = useRef<HTMLDivElement>(null);
  const offset = useOffsetTop(body);
  const [columns, setColumns] = useState(4);
  useLayoutEffect(() => {
    const element = body.current;
    if (!element) return;
    const measure = () => setColumns(Math.max(2, Math.floor(element.clientWidth / TILE_MIN_WIDTH)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rows = Math.ceil(items.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => TILE_HEIGHT,
    overscan: 4,
    scrollMargin: offset,
    scrollPaddingStart: SELECTION_BAR_HEIGHT,
  });
  const { focusIndex, pointedAt } = useFocusIndex(
    props,
    (index) => virtualizer.scrollToIndex(Math.floor(index / columns), { align: 'auto' }),
    columns,
  );

  return (
    <div
      role="grid"
      aria-label={props.label}
      aria-multiselectable="true"
      aria-rowcount={rows}
      aria-colcount={columns}
      aria-activedescendant={focusIndex >= 0 ? `${id}-${focusIndex}` : undefined}
      tabIndex={0}
      onKeyDown={(event) => props.onKeyDown(event, columns)}
      className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      data-testid="entry-grid"
    >
      <div ref={body} role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.index}
            role="row"
            aria-rowindex={row.index + 1}
            className="absolute inset-x-0 top-0 grid gap-2"
            style={{
              height: TILE_HEIGHT,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item, column) => {
              const index = row.index * columns + column;
              const selected = selection.selected.has(item.path);
              const focused = index === focusIndex;
              return (
                <div
                  key={item.path}
                  id={`${id}-${index}`}
                  role="gridcell"
                  aria-selected={selected}
                  aria-colindex={column + 1}
                  data-testid="entry-tile"
                  data-path={item.path}
                  data-focused={focused || undefined}
                  {...openHandlers(props, item, pointedAt)}
                  className={`group relative mb-2 flex cursor-default flex-col overflow-hidden rounded-lg border text-sm select-none ${
                    selected
                      ? 'border-accent bg-accent-soft'
                      : 'border-border bg-surface hover:bg-surface-sunken'
                  } ${focused ? 'outline-2 outline-offset-1 outline-ring' : ''}`}
                >
                  <div className="h-24 bg-surface-sunken">
                    <EntryThumbnail tree={props.tree} item={item} />
                  </div>
                  <div className="flex min-w-0 items-center gap-1.5 px-2 py-2 text-fg">
                    <NameText item={item} props={props} />
                  </div>
                  <div className="absolute top-1.5 left-1.5">
                    <SelectBox item={item} selected={selected} props={props} />
                  </div>
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
