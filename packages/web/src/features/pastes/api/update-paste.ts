/** PUT /admin/pastes/:id or /user/pastes/:id: changes a paste; fields not sent stay as they are. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasteDetail, PasteUpdateInput } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { managementPath, type ManagementScope } from './management-scope.ts';
import { pasteKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

export function updatePaste({
  scope,
  id,
  input,
}: {
  scope: ManagementScope;
  id: string;
  input: PasteUpdateInput;
}): Promise<PasteDetail> {
  return api.put<PasteDetail>(managementPath(scope, id), input);
}

export function useUpdatePaste() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaste,
    onSuccess: (detail, { scope }) => queryClient.setQueryData(pasteKeys.detail(scope, detail.id), detail),
    onSettled: () => refreshAfterChange(queryClient, { queryKey: pasteKeys.lists() }),
  });
}
