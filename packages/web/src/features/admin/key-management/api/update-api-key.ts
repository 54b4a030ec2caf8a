/** PUT /admin/api-keys/:id: changes a key's name, permissions, base path or expiry. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyUpdateInput, ApiKeyView } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { apiKeyKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export async function updateApiKey({ id, input }: { id: string; input: ApiKeyUpdateInput }): Promise<void> {
  await api.put<ApiKeyView | null>(`/admin/api-keys/${encodeURIComponent(id)}`, input);
}

export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApiKey,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: apiKeyKeys.all }),
  });
}
