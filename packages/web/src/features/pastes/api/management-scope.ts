/**
 * Management calls go to `/admin/pastes` for the admin (every paste) and `/user/pastes` for an API
 * key with the text permission (its own pastes only), docs/product.md §6.
 */
import { useAuthStore } from '../../auth/index.ts';

export type ManagementScope = 'admin' | 'user';

export function currentScope(): ManagementScope {
  return useAuthStore.getState().authType === 'admin' ? 'admin' : 'user';
}

export function useManagementScope(): ManagementScope {
  return useAuthStore((state) => (state.authType === 'admin' ? 'admin' : 'user'));
}

export function managementPath(scope: ManagementScope, id?: string): string {
  const base = `/${scope}/pastes`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}
