/**
 * Environment switcher (docs/product.md §2): lets an admin point this UI at another backend. It is shown only
 * to a signed-in admin whose URL carries `showEnvSwitcher`. The address is stored in localStorage
 * `vite-api-base-url`; "Use default" goes back to the same origin. After a switch, cached server
 * data is dropped and the login is checked against the new backend. Its button sits in the footer.
 */
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { withSections } from '../../lib/i18n/index.ts';
import { useAuthStore } from '../auth/index.ts';

export const ENV_SWITCHER_QUERY = 'showEnvSwitcher';

const EnvSwitcherPanel = lazy(() => withSections(import('./env-switcher-panel.tsx'), ['envSwitcher']));

export function EnvSwitcher() {
  const [searchParams] = useSearchParams();
  const isAdmin = useAuthStore((state) => state.authType === 'admin' && state.isAuthenticated);
  if (!isAdmin || !searchParams.has(ENV_SWITCHER_QUERY)) return null;
  return (
    <Suspense fallback={null}>
      <EnvSwitcherPanel />
    </Suspense>
  );
}
