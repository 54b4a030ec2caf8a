/** GET /admin/pastes/:id or /user/pastes/:id: one paste with its content; counts no view. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasteDetail, PasteView } from '@cubby/shared';
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

/** The reader's view of a paste, built from its management record (no view counted). */
export function toPasteView(detail: PasteDetail): PasteView {
  return {
    slug: detail.slug,
    content: detail.content,
    format: detail.format,
    remark: detail.remark,
    hasPassword: detail.has_password,
    expiresAt: detail.expires_at,
    maxViews: detail.max_views,
    views: detail.views,
    remainingViews: detail.max_views > 0 ? Math.max(0, detail.max_views - detail.views) : null,
    createdAt: detail.created_at,
    updatedAt: detail.updated_at,
    created_by: detail.created_by,
  };
}
