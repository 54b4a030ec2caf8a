/**
 * The admin's folder-rule calls (CloudPaste 1.9's /fs-meta routes): list, create, change, delete.
 * Each change refreshes the list and every explorer listing (READMEs and hidden names change).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FsMetaBody, FsMetaRule } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export const folderRuleKeys = { all: ['fs-meta'] as const };

export const folderRulesQueryOptions = () =>
  queryOptions({
    queryKey: folderRuleKeys.all,
    queryFn: ({ signal }) => api.get<FsMetaRule[]>('/fs-meta/list', { signal }),
  });

export const useFolderRules = () => useQuery(folderRulesQueryOptions());

const rulePath = (id: string) => `/fs-meta/${encodeURIComponent(id)}`;

function useRefreshingMutation<TInput>(mutationFn: (input: TInput) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await refreshAfterChange(queryClient, { queryKey: folderRuleKeys.all });
      await refreshAfterChange(queryClient, { queryKey: ['fs'] });
    },
  });
}

export const useCreateFolderRule = () =>
  useRefreshingMutation((input: FsMetaBody) => api.post<FsMetaRule>('/fs-meta/create', input));
export const useUpdateFolderRule = () =>
  useRefreshingMutation(({ id, input }: { id: string; input: FsMetaBody }) =>
    api.put<FsMetaRule>(rulePath(id), input),
  );
export const useDeleteFolderRule = () =>
  useRefreshingMutation((id: string) => api.delete<unknown>(rulePath(id)));
