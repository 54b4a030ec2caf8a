/**
 * Management calls go to `/admin/pastes` for the admin (every paste) and `/user/pastes` for an API
 * key with the text permission or a member (their own pastes only), docs/product.md §6, docs/accounts.md.
 */
import { routeScope, useAuthStore } from '../../auth/index.ts';

export type ManagementScope = 'admin' | 'user';

export function currentScope(): ManagementScope {
  return routeScope(useAuthStore.getState());
}

export function useManagementScope(): ManagementScope {
  return useAuthStore(routeScope);
}

export function managementPath(scope: ManagementScope, id?: string): string {
  const base = `/${scope}/pastes`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}
