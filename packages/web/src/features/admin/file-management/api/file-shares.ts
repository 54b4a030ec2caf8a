/**
 * File share management: GET …/files?limit&offset&search&source (the admin sees every share at
 * `/admin/files`, an API key with the file permission its own at `/user/files`), PUT …/files/:id
 * (only the changed fields), DELETE …/files/:id and POST …/files/batch-delete {ids}. Deleting a
 * share deletes its object in storage too, unless the share is of a mount's file (`keeps_file`).
 */
import type { FileItem, FileListAnswer } from '@cubby/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api/index.ts';
import type { ManagementScope } from '../../../pastes/index.ts';
import { fileShareKeys } from './query-keys.ts';
import type { FileListParams, FilePage, FileShareUpdate } from './types.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export function filesPath(scope: ManagementScope, id?: string): string {
  const base = `/${scope}/files`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

/** Normalises a list item: numbers as numbers, 0/1 flags, missing optional fields as null. */
export function toFileShare(raw: FileItem): FileItem {
  return {
    ...raw,
    id: String(raw.id),
    size: Number(raw.size) || 0,
    remark: raw.remark ?? null,
    views: Number(raw.views) || 0,
    max_views: Number(raw.max_views) || 0,
    expires_at: raw.expires_at ?? null,
    etag: raw.etag ?? null,
    has_password: Boolean(raw.has_password),
    created_by: raw.created_by ?? null,
    use_proxy: Number(raw.use_proxy) === 0 ? 0 : 1,
    s3_config_name: raw.s3_config_name ?? null,
    s3_provider_type: raw.s3_provider_type ?? null,
    key_name: raw.key_name ?? null,
    // A backend that does not say (CloudPaste): its shares are listed as ordinary ones.
    source: raw.source === 'mount_upload' ? 'mount_upload' : 'share',
    // Without the field (CloudPaste), deleting a share deletes its file.
    keeps_file: raw.keeps_file === true,
  };
}

export async function getFileShares(
  scope: ManagementScope,
  { page, limit, search, source }: FileListParams,
  signal?: AbortSignal,
): Promise<FilePage> {
  const query = new URLSearchParams({ limit: String(limit), offset: String((page - 1) * limit) });
  if (search.trim() !== '') query.set('search', search.trim());
  if (source !== 'all') query.set('source', source);
  const data = await api.get<FileListAnswer>(`${filesPath(scope)}?${query}`, { signal });
  const items = (Array.isArray(data?.files) ? data.files : []).map(toFileShare);
  const total = Number(data?.pagination?.total ?? items.length);
  return { items, total, totalPages: Math.max(1, Math.ceil(total / limit)) };
}

export const fileSharesQueryOptions = (scope: ManagementScope, params: FileListParams) =>
  queryOptions({
    queryKey: fileShareKeys.list(scope, params),
    queryFn: ({ signal }) => getFileShares(scope, params, signal),
    placeholderData: keepPreviousData,
  });

export function useFileShares(scope: ManagementScope, params: FileListParams) {
  return useQuery(fileSharesQueryOptions(scope, params));
}

export async function updateFileShare({
  scope,
  id,
  input,
}: {
  scope: ManagementScope;
  id: string;
  input: FileShareUpdate;
}): Promise<void> {
  await api.put<unknown>(filesPath(scope, id), input);
}

export async function deleteFileShare({ scope, id }: { scope: ManagementScope; id: string }): Promise<void> {
  await api.delete<unknown>(filesPath(scope, id));
}

/** Revokes a share: its links answer 410 from now on; it stays listed until deleted. */
export async function revokeFileShare({ scope, id }: { scope: ManagementScope; id: string }): Promise<void> {
  await api.post<unknown>(`${filesPath(scope)}/${encodeURIComponent(id)}/revoke`, {});
}

/** Deletes several shares; answers how many the server removed. */
export async function batchDeleteFileShares({
  scope,
  ids,
}: {
  scope: ManagementScope;
  ids: string[];
}): Promise<number> {
  const result = await api.post<{ count?: number; deleted?: number }>(`${filesPath(scope)}/batch-delete`, {
    ids,
  });
  return Number(result?.count ?? result?.deleted ?? ids.length);
}

function useInvalidatingMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // The variables of an update may hold a new password: forget the finished mutation at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: fileShareKeys.managed() }),
  });
}

export const useUpdateFileShare = () => useInvalidatingMutation(updateFileShare);
export const useDeleteFileShare = () => useInvalidatingMutation(deleteFileShare);
export const useBatchDeleteFileShares = () => useInvalidatingMutation(batchDeleteFileShares);
export const useRevokeFileShare = () => useInvalidatingMutation(revokeFileShare);
