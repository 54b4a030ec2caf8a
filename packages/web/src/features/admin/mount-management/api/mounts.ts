/**
 * The admin's mount calls: list (GET /admin/mounts, every mount in list order), create (POST),
 * change (PUT /admin/mounts/:id, also the activate / deactivate toggle) and delete (DELETE; the
 * files behind a mount are never deleted). Each change refreshes the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LINK_POLICIES,
  type Mount,
  type MountCreateInput,
  type MountUpdateInput,
  STORAGE_KIND_NAME,
  type StorageKindName,
} from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { mountKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const KIND_NAMES: readonly StorageKindName[] = Object.values(STORAGE_KIND_NAME);

const mountPath = (id: string) => `/admin/mounts/${encodeURIComponent(id)}`;

/** Copies a mount's fields as the list shows them (0/1 flags of older servers read as booleans). */
export function toMount(raw: Mount): Mount {
  return {
    id: String(raw.id),
    name: raw.name,
    storage_type: KIND_NAMES.includes(raw.storage_type) ? raw.storage_type : 'S3',
    storage_config_id: String(raw.storage_config_id ?? ''),
    storage_config_name: raw.storage_config_name ?? '',
    mount_path: raw.mount_path,
    remark: raw.remark ?? null,
    is_active: Boolean(raw.is_active),
    created_by: raw.created_by ?? null,
    sort_order: Number(raw.sort_order) || 0,
    cache_ttl: Number(raw.cache_ttl) || 0,
    link_policy: LINK_POLICIES.includes(raw.link_policy) ? raw.link_policy : 'proxy',
    custom_host: raw.custom_host ?? null,
    created_at: raw.created_at,
    updated_at: raw.updated_at,
    last_used: raw.last_used ?? null,
  };
}

export async function getMounts(signal?: AbortSignal): Promise<Mount[]> {
  const mounts = await api.get<Mount[]>('/admin/mounts', { signal });
  return (Array.isArray(mounts) ? mounts : []).map(toMount);
}

export const mountsQueryOptions = () =>
  queryOptions({ queryKey: mountKeys.list(), queryFn: ({ signal }) => getMounts(signal) });

export function useMounts() {
  return useQuery(mountsQueryOptions());
}

export async function createMount(input: MountCreateInput): Promise<void> {
  await api.post<Mount>('/admin/mounts', input);
}

export async function updateMount({ id, input }: { id: string; input: MountUpdateInput }): Promise<void> {
  await api.put<Mount>(mountPath(id), input);
}

export async function deleteMount(id: string): Promise<void> {
  await api.delete<unknown>(mountPath(id));
}

function useRefreshingMutation<TInput>(mutationFn: (input: TInput) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: mountKeys.all }),
  });
}

export const useCreateMount = () => useRefreshingMutation(createMount);
export const useUpdateMount = () => useRefreshingMutation(updateMount);
export const useDeleteMount = () => useRefreshingMutation(deleteMount);
