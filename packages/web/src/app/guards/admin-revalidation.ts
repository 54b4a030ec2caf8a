/**
 * Loader of the admin routes (spec §2 "Route guard"): before an admin screen opens, the login is
 * revalidated with the server when the last check is older than five minutes. A rejected
 * credential signs the user out (the page then shows the login form with the reason). Errors here
 * are swallowed: navigation always continues.
 */
import { useAuthStore } from '../../features/auth/index.ts';

export async function adminRevalidationLoader(): Promise<null> {
  try {
    const auth = useAuthStore.getState();
    if (auth.needsRevalidation()) await auth.validate();
  } catch {
    // A guard never blocks navigation.
  }
  return null;
}
