/**
 * Who may create and who may edit text shares, from the auth state: creating needs the admin or a
 * key with the text permission, or a member; editing also needs to be the paste's creator (`isCreator`
 * from @cubby/shared: the admin always, a member or a key only for what they created).
 */
import { isCreator } from '@cubby/shared';
import { useAuthStore } from '../auth/index.ts';

export function useCanCreatePaste(): boolean {
  return useAuthStore((state) => state.hasPermission('text'));
}

export function useCanEditPaste(createdBy: string | null | undefined): boolean {
  return useAuthStore((state) => {
    if (state.authType === 'admin') return isCreator({ type: 'admin' }, createdBy);
    if (state.authType === 'member' && state.userInfo?.id) {
      return isCreator({ type: 'member', id: state.userInfo.id }, createdBy);
    }
    if (state.authType !== 'apikey' || !state.apiKeyInfo || !state.apiKeyPermissions.text) return false;
    return isCreator({ type: 'apikey', id: state.apiKeyInfo.id }, createdBy);
  });
}
