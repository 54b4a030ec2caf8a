/**
 * Errors of the settings page's sections. An error belongs to the section that caused it: the
 * section clears it when its own fields change, and a successful save of any section clears every
 * section's errors (a message from an earlier attempt no longer describes the page). Each error is
 * stamped with the number of saves when it was set; a later save makes it stale, so nothing has to
 * reach into the other sections.
 */
import { useCallback, useState } from 'react';
import { create } from 'zustand';

const useSaves = create<{ count: number }>()(() => ({ count: 0 }));

/** Tells every section that one of them saved: their errors go. */
export function announceSectionSaved(): void {
  useSaves.setState((state) => ({ count: state.count + 1 }));
}

/**
 * A section's error state, like `useState(none)`, whose value falls back to `none` once any section
 * has saved since it was set. `none` must be a stable value (a constant).
 */
export function useSectionErrors<T>(none: T) {
  const saves = useSaves((state) => state.count);
  const [stamped, setStamped] = useState({ value: none, saves });
  const value = stamped.saves === saves ? stamped.value : none;
  const set = useCallback(
    (next: T | ((current: T) => T)) =>
      setStamped((previous) => {
        const now = useSaves.getState().count;
        const current = previous.saves === now ? previous.value : none;
        return {
          value: typeof next === 'function' ? (next as (current: T) => T)(current) : next,
          saves: now,
        };
      }),
    [none],
  );
  return [value, set] as const;
}
