/**
 * The rules of a paged, selectable share list (file shares and text shares in the admin): which
 * rows are selected after a click, and which page to show after rows were deleted.
 */

/** The selection with one row added or taken out (a new set: state stays immutable). */
export function withRow(selected: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  const next = new Set(selected);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The page to show after deleting `removed` of the `shown` rows of `page`: one back when the page
 * emptied (it may now be past the end), else the same one.
 */
export function pageAfterRemoval(page: number, removed: number, shown: number): number {
  return removed >= shown && page > 1 ? page - 1 : page;
}
