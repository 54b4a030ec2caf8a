/**
 * The shell of an admin share list with selection: cards on phones (a "select all" box above
 * them), a table on wide screens (the box in the header). Each row has its own checkbox; what a
 * card and a table row show is up to the list.
 */
import type { ReactNode } from 'react';
import { useMediaQuery } from '../../lib/use-media-query.ts';

/** What the selection boxes read and change. */
export interface ShareSelection {
  selected: ReadonlySet<string>;
  onToggle(id: string, selected: boolean): void;
  onToggleAll(selected: boolean): void;
}

/** One phone card: a title block (with `titleId` on the element that names the card), facts, actions. */
export interface ShareCard {
  titleId: string;
  title: ReactNode;
  /** Beside the title (e.g. a status badge). */
  aside?: ReactNode;
  /** `Fact`s, two per line. */
  facts: ReactNode;
  actions: ReactNode;
}

export interface SelectableShareListProps<T extends { id: string; slug: string }> extends ShareSelection {
  items: readonly T[];
  /** Names the list (or table) for assistive tech. */
  label: string;
  selectAllLabel: string;
  selectLabel(item: T): string;
  /** Test id of every row (card or table row), which also carries `data-slug`. */
  rowTestId: string;
  card(item: T): ShareCard;
  table: {
    /** Classes of the table's wrapper and of the table (layout, overflow). */
    wrapperClassName: string;
    className?: string;
    /** The header cells after the selection column. */
    columns: readonly { label: ReactNode; className: string }[];
    /** The cells (`td`s) of a row after its checkbox. */
    cells(item: T): ReactNode;
  };
}

function SelectBox({
  checked,
  onChange,
  label,
  className = '',
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  label?: string;
  className?: string;
}) {
  return (
    <input
      type="checkbox"
      className={`size-4 accent-accent ${className}`}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      aria-label={label}
    />
  );
}

export function SelectableShareList<T extends { id: string; slug: string }>(
  props: SelectableShareListProps<T>,
) {
  const { items, selected, onToggle, onToggleAll, label, selectAllLabel, rowTestId, table } = props;
  const wide = useMediaQuery('(min-width: 1024px)');
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));
  const rowBox = (item: T, className: string) => (
    <SelectBox
      className={className}
      checked={selected.has(item.id)}
      onChange={(on) => onToggle(item.id, on)}
      label={props.selectLabel(item)}
    />
  );

  if (!wide) {
    return (
      <div className="space-y-3">
        <label className="flex items-center gap-2 text-sm text-fg-muted">
          <SelectBox checked={allSelected} onChange={onToggleAll} />
          {selectAllLabel}
        </label>
        <ul className="space-y-3" aria-label={label}>
          {items.map((item) => {
            const card = props.card(item);
            return (
              <li key={item.id} data-testid={rowTestId} data-slug={item.slug}>
                <article
                  className="rounded-lg border border-border bg-surface p-4"
                  aria-labelledby={card.titleId}
                >
                  <div className="flex items-start gap-3">
                    {rowBox(item, 'mt-1 shrink-0')}
                    <div className="min-w-0 flex-1">{card.title}</div>
                    {card.aside}
                  </div>
                  <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-border pt-3">{card.facts}</dl>
                  <div className="mt-3 border-t border-border pt-3">{card.actions}</div>
                </article>
              </li>
            );
          })}
        </ul>
      </div>
    );
  }

  return (
    <div className={table.wrapperClassName}>
      <table className={`w-full text-left text-sm ${table.className ?? ''}`} aria-label={label}>
        <thead className="border-b border-border text-xs text-fg-muted">
          <tr>
            <th scope="col" className="w-8 py-2 pe-2">
              <SelectBox checked={allSelected} onChange={onToggleAll} label={selectAllLabel} />
            </th>
            {table.columns.map((column, index) => (
              <th key={index} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {items.map((item) => (
            <tr key={item.id} data-testid={rowTestId} data-slug={item.slug} className="align-top">
              <td className="py-3 pe-2">{rowBox(item, 'mt-0.5')}</td>
              {table.cells(item)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
