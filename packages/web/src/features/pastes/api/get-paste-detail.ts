/** GET /admin/pastes/:id or /user/pastes/:id: one paste with its content; counts no view. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasteDetail } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { managementPath, type ManagementScope } from './management-scope.ts';
import { pasteKeys } from './query-keys.ts';

export function getPasteDetail(
  scope: ManagementScope,
  id: string,
  signal?: AbortSignal,
): Promise<PasteDetail> {
  return api.get<PasteDetail>(managementPath(scope, id), { signal });
}

export const pasteDetailQueryOptions = (scope: ManagementScope, id: string) =>
  queryOptions({
    queryKey: pasteKeys.detail(scope, id),
    queryFn: ({ signal }) => getPasteDetail(scope, id, signal),
    staleTime: 0,
  });

export function usePasteDetail(scope: ManagementScope, id: string) {
  return useQuery(pasteDetailQueryOptions(scope, id));
}
