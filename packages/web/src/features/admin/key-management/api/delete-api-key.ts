/** DELETE /admin/api-keys/:id: revokes a key for good. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api/index.ts';
import { apiKeyKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export async function deleteApiKey(id: string): Promise<void> {
  await api.delete<unknown>(`/admin/api-keys/${encodeURIComponent(id)}`);
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: apiKeyKeys.all }),
  });
}
