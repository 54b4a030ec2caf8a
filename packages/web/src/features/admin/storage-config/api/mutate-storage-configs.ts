/**
 * Changing storage configs: create (POST /s3-configs), update (PUT /s3-configs/:id; absent
 * credentials keep the stored ones), delete (DELETE /s3-configs/:id; 409 while file shares use
 * it), and make default (PUT /s3-configs/:id/set-default). Each refreshes the list when done.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api/index.ts';
import { storageConfigKeys } from './query-keys.ts';
import type { StorageConfigCreateBody, StorageConfigUpdateBody } from '@cubby/shared';
import type { StorageConfig } from './types.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

const configPath = (id: string) => `/s3-configs/${encodeURIComponent(id)}`;

export async function createStorageConfig(input: StorageConfigCreateBody): Promise<void> {
  await api.post<StorageConfig>('/s3-configs', input);
}

export async function updateStorageConfig({ id, input }: { id: string; input: StorageConfigUpdateBody }) {
  await api.put<StorageConfig | null>(configPath(id), input);
}

export async function deleteStorageConfig(id: string): Promise<void> {
  await api.delete<unknown>(configPath(id));
}

export async function setDefaultStorageConfig(id: string): Promise<void> {
  await api.put<unknown>(`${configPath(id)}/set-default`);
}

function useInvalidatingMutation<TInput>(mutationFn: (input: TInput) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // The variables may hold credentials: forget the finished mutation at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: storageConfigKeys.all }),
  });
}

export const useCreateStorageConfig = () => useInvalidatingMutation(createStorageConfig);
export const useUpdateStorageConfig = () => useInvalidatingMutation(updateStorageConfig);
export const useDeleteStorageConfig = () => useInvalidatingMutation(deleteStorageConfig);
export const useSetDefaultStorageConfig = () => useInvalidatingMutation(setDefaultStorageConfig);
