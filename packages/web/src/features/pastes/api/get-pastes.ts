/**
 * The management list: GET /admin/pastes?page&limit&search (admin) or /user/pastes?limit&offset&
 * search (API key, own pastes). The pagination block stands at the top level of the answer.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PasteSummary } from '@cubby/shared';
import { apiRequest } from '../../../lib/api/index.ts';
import { managementPath, type ManagementScope } from './management-scope.ts';
import { pasteKeys, type PasteListParams } from './query-keys.ts';

export interface Pagination {
  total: number;
  page: number;
  limit: number;
  offset: number;
  totalPages: number;
  hasMore: boolean;
}

export interface PastePage {
  items: PasteSummary[];
  pagination: Pagination;
}

export async function getPastes(
  scope: ManagementScope,
  { page, limit, search }: PasteListParams,
  signal?: AbortSignal,
): Promise<PastePage> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (scope === 'admin') query.set('page', String(page));
  else query.set('offset', String((page - 1) * limit));
  if (search.trim() !== '') query.set('search', search.trim());
  const body = (await apiRequest<PasteSummary[]>(`${managementPath(scope)}?${query}`, { signal })) as {
    data: PasteSummary[];
    pagination?: Partial<Pagination>;
  };
  const items = Array.isArray(body.data) ? body.data : [];
  const total = body.pagination?.total ?? items.length;
  return {
    items,
    pagination: {
      total,
      page,
      limit,
      offset: (page - 1) * limit,
      totalPages: body.pagination?.totalPages ?? Math.max(1, Math.ceil(total / limit)),
      hasMore: body.pagination?.hasMore ?? page * limit < total,
    },
  };
}

export const pastesQueryOptions = (scope: ManagementScope, params: PasteListParams) =>
  queryOptions({
    queryKey: pasteKeys.list(scope, params),
    queryFn: ({ signal }) => getPastes(scope, params, signal),
    placeholderData: keepPreviousData,
  });

export function usePastes(scope: ManagementScope, params: PasteListParams) {
  return useQuery(pastesQueryOptions(scope, params));
}
