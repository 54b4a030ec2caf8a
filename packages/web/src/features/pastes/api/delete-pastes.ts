/**
 * Removing pastes: DELETE …/pastes/:id, POST …/pastes/batch-delete {ids} (a key only ever
 * deletes its own), POST /admin/pastes/clear-expired (admin only), and revoking one — POST
 * …/pastes/:id/revoke: its link answers 410 from then on, the record stays listed. The batch calls
 * answer with the number removed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api/index.ts';
import { managementPath, type ManagementScope } from './management-scope.ts';
import { pasteKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

export async function deletePaste({ scope, id }: { scope: ManagementScope; id: string }): Promise<void> {
  await api.delete<unknown>(managementPath(scope, id));
}

export async function batchDeletePastes({
  scope,
  ids,
}: {
  scope: ManagementScope;
  ids: string[];
}): Promise<number> {
  const result = await api.post<{ count?: number }>(`${managementPath(scope)}/batch-delete`, { ids });
  return Number(result?.count ?? 0);
}

export async function revokePaste({ scope, id }: { scope: ManagementScope; id: string }): Promise<void> {
  await api.post<unknown>(`${managementPath(scope, id)}/revoke`, {});
}

export async function clearExpiredPastes(): Promise<number> {
  const result = await api.post<{ count?: number }>('/admin/pastes/clear-expired', { clearExpired: true });
  return Number(result?.count ?? 0);
}

function useInvalidatingMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: pasteKeys.managed() }),
  });
}

export const useDeletePaste = () => useInvalidatingMutation(deletePaste);
export const useBatchDeletePastes = () => useInvalidatingMutation(batchDeletePastes);
export const useClearExpiredPastes = () => useInvalidatingMutation(clearExpiredPastes);
export const useRevokePaste = () => useInvalidatingMutation(revokePaste);
