/**
 * POST /admin/change-password: changes the admin's username and/or password. The server then ends
 * every session of that admin. A wrong current password is a 401 the client reports without
 * logging out (docs/product.md §8).
 */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../../lib/api/index.ts';

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword?: string;
  newUsername?: string;
}

export async function changePassword(input: ChangePasswordInput): Promise<void> {
  await api.post<unknown>('/admin/change-password', input);
}

export function useChangePassword() {
  // gcTime 0: the passwords in the mutation's variables are not kept once it is done.
  return useMutation({ mutationFn: changePassword, gcTime: 0 });
}
