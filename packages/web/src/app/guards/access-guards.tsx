/**
 * Component guards (docs/product.md §2 "Route guard"), re-evaluated whenever the auth state changes:
 * - an API key with none of the text, file or mount permissions may not use the admin area or the
 *   mount explorer and is sent home;
 * - a key with the mount permission opening an explorer path outside its base path is redirected
 *   to `/mount-explorer<base path>` (the rule itself is `isPathWithin` from @cubby/shared);
 * - a person who must set up two-factor sign-in first (the server refuses them the rest) is sent to
 *   the admin area, which shows that set-up.
 * Errors while deciding are swallowed and the page is shown.
 */
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { isPathWithin } from '@cubby/shared';
import { showToast } from '../../components/toast/toast-store.ts';
import { paths } from '../../config/paths.ts';
import { useAuthStore } from '../../features/auth/index.ts';

function useKeyScope() {
  return useAuthStore(
    useShallow((state) => ({
      isKey: state.isAuthenticated && state.authType === 'apikey',
      permissions: state.apiKeyPermissions,
      basePath: state.apiKeyInfo?.basic_path ?? '/',
    })),
  );
}

function RedirectHome() {
  const { t } = useTranslation();
  useEffect(() => {
    showToast(t('auth.noPermissions'), 'warning');
  }, [t]);
  return <Navigate to={paths.home.getHref()} replace />;
}

function hasNoPermission(permissions: { text: boolean; file: boolean; mount: boolean }): boolean {
  return !permissions.text && !permissions.file && !permissions.mount;
}

export function ManagementAccessGuard({ children }: { children: ReactNode }) {
  const { isKey, permissions } = useKeyScope();
  if (isKey && hasNoPermission(permissions)) return <RedirectHome />;
  return children;
}

export function MountExplorerGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { isKey, permissions, basePath } = useKeyScope();
  const mustEnrol = useAuthStore((state) => state.mustEnrol);
  if (mustEnrol) return <Navigate to={paths.admin.getHref()} replace />;
  if (!isKey) return children;
  if (hasNoPermission(permissions)) return <RedirectHome />;
  let outside = false;
  try {
    outside = permissions.mount && !isPathWithin(basePath, paths.mountExplorer.pathFromPathname(pathname));
  } catch {
    outside = false;
  }
  if (outside) return <Navigate to={paths.mountExplorer.getHref(basePath)} replace />;
  return children;
}
