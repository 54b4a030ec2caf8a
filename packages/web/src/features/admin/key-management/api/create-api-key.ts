/**
 * POST /admin/api-keys: creates a key. The answer is the only time the full key exists on the
 * client; it is handed to the caller and never stored in the query or mutation cache.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreateInput, ApiKeyView } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { toApiKeyView } from './get-api-keys.ts';
import { apiKeyKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export interface CreatedApiKey {
  view: ApiKeyView;
  /** The full key, to show once. */
  key: string;
}

export async function createApiKey(input: ApiKeyCreateInput): Promise<CreatedApiKey> {
  const created = await api.post<ApiKeyView & { key: string }>('/admin/api-keys', input);
  return { view: toApiKeyView(created), key: created.key };
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    // Forget the finished mutation (and so the key) at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: apiKeyKeys.all }),
  });
}
