/**
 * Guard of the admin routes (docs/product.md §2 "Route guard"): before an admin screen opens — entering the
 * admin area, moving between modules, or following a link to the screen already shown — the login
 * is revalidated with the server when the last check is older than five minutes. The screen
 * suspends until the answer: on a navigation the previous screen stays in view meanwhile (router
 * updates are transitions), on a first load the page shows its loading state. A rejected credential
 * signs the user out (the page then shows the login form with the reason). Errors here are
 * swallowed: navigation always continues.
 */
import { use, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAuthStore } from '../../features/auth/index.ts';

interface Revalidation {
  /** The history entry (navigation) this check belongs to. */
  locationKey: string;
  promise: Promise<void>;
  settled: boolean;
}

/**
 * The check of the navigation being rendered. Kept outside React: a suspended first render keeps no
 * state, and its retry must find the same check (and not start another after a network failure).
 */
let current: Revalidation | null = null;

function revalidationFor(locationKey: string): Revalidation {
  if (current?.locationKey === locationKey) return current;
  const check: Revalidation = { locationKey, promise: Promise.resolve(), settled: true };
  try {
    const auth = useAuthStore.getState();
    if (auth.needsRevalidation()) {
      check.settled = false;
      check.promise = auth
        .validate()
        .catch(() => {
          // A guard never blocks navigation.
        })
        .then(() => {
          check.settled = true;
        });
    }
  } catch {
    check.settled = true;
  }
  current = check;
  return check;
}

/** Layout route of the admin screens: renders them once the login is known to be current. */
export function AdminRevalidation() {
  const { key } = useLocation();
  // Leaving the admin area forgets the last check, so coming back (even to the same history entry,
  // with the back button) checks again when it is due.
  useEffect(
    () => () => {
      current = null;
    },
    [],
  );
  const check = revalidationFor(key);
  if (!check.settled) use(check.promise);
  return <Outlet />;
}
