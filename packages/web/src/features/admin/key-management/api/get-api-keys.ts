/**
 * GET /admin/api-keys: the key list. Only the fields of `ApiKeyView` are kept, so a full key can
 * never sit in the query cache even if a server sent one.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyView } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { apiKeyKeys } from './query-keys.ts';

/** Copies the displayable fields of a key record (never the key itself). */
export function toApiKeyView(raw: ApiKeyView): ApiKeyView {
  return {
    id: String(raw.id),
    name: raw.name,
    key_masked: raw.key_masked,
    text_permission: Boolean(raw.text_permission),
    file_permission: Boolean(raw.file_permission),
    mount_permission: Boolean(raw.mount_permission),
    basic_path: raw.basic_path || '/',
    created_at: raw.created_at,
    expires_at: raw.expires_at,
    last_used: raw.last_used ?? null,
    owner_id: raw.owner_id ?? null,
    ...(raw.owner_name !== undefined ? { owner_name: raw.owner_name } : {}),
  };
}

export async function getApiKeys(signal?: AbortSignal): Promise<ApiKeyView[]> {
  const keys = await api.get<ApiKeyView[]>('/admin/api-keys', { signal });
  return (Array.isArray(keys) ? keys : []).map(toApiKeyView);
}

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
