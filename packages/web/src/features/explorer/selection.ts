/**
 * Selection in a folder as desktop file managers do it: a click selects one entry, Ctrl/Cmd+click
 * toggles one, Shift+click selects the range from the anchor (the last entry clicked without
 * Shift); arrows move the focus (with Shift they extend the range), Ctrl/Cmd+A selects all. Keys are
 * entry paths; `order` is the order the user sees (sorted and filtered).
 */

export interface Selection {
  selected: ReadonlySet<string>;
  /** Where a Shift range starts. */
  anchor: string | null;
  /** The entry the keyboard is on. */
  focus: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: new Set(), anchor: null, focus: null };

export type ClickMode = 'replace' | 'toggle' | 'range';

function range(order: readonly string[], from: string | null, to: string): Set<string> {
  const end = order.indexOf(to);
  const start = from === null ? -1 : order.indexOf(from);
  if (end < 0) return new Set();
  if (start < 0) return new Set([to]);
  const [low, high] = start <= end ? [start, end] : [end, start];
  return new Set(order.slice(low, high + 1));
}

/** The selection after a click on `key` (or Space/Enter-less picks by keyboard). */
export function clickSelect(
  current: Selection,
  order: readonly string[],
  key: string,
  mode: ClickMode,
): Selection {
  switch (mode) {
    case 'replace':
      return { selected: new Set([key]), anchor: key, focus: key };
    case 'toggle': {
      const selected = new Set(current.selected);
      if (selected.has(key)) selected.delete(key);
      else selected.add(key);
      return { selected, anchor: key, focus: key };
    }
    case 'range':
      return {
        selected: range(order, current.anchor ?? current.focus, key),
        anchor: current.anchor ?? key,
        focus: key,
      };
  }
}

/** Moves the focus by `delta` rows (clamped); selects the new entry, or the range with `extend`. */
export function moveFocus(
  current: Selection,
  order: readonly string[],
  delta: number,
  extend: boolean,
): Selection {
  if (order.length === 0) return current;
  const at = current.focus === null ? -1 : order.indexOf(current.focus);
  // Without a focus, moving forward starts before the first entry and moving back after the last.
  const from = at >= 0 ? at : delta >= 0 ? -1 : order.length;
  const next = Math.min(order.length - 1, Math.max(0, from + delta));
  const key = order[next]!;
  if (extend)
    return { selected: range(order, current.anchor ?? key, key), anchor: current.anchor ?? key, focus: key };
  return { selected: new Set([key]), anchor: key, focus: key };
}

export function selectAll(current: Selection, order: readonly string[]): Selection {
  return { selected: new Set(order), anchor: current.anchor, focus: current.focus ?? order[0] ?? null };
}

/** Drops what is no longer in the folder (after a delete, a rename or a refresh). */
export function keepExisting(current: Selection, order: readonly string[]): Selection {
  const present = new Set(order);
  const selected = [...current.selected].filter((key) => present.has(key));
  if (
    selected.length === current.selected.size &&
    (current.focus === null || present.has(current.focus)) &&
    (current.anchor === null || present.has(current.anchor))
  ) {
    return current;
  }
  return {
    selected: new Set(selected),
    anchor: current.anchor !== null && present.has(current.anchor) ? current.anchor : null,
    focus: current.focus !== null && present.has(current.focus) ? current.focus : null,
  };
}
