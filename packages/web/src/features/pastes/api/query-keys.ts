/** Query keys of text shares: one factory, so invalidation cannot miss a variant. */
import type { ManagementScope } from './management-scope.ts';

export interface PasteListParams {
  page: number;
  limit: number;
  search: string;
}

export const pasteKeys = {
  all: ['pastes'] as const,
  /** A reader's view of one paste (counts a view on the server: fetched once per page view). */
  view: (slug: string) => [...pasteKeys.all, 'view', slug] as const,
  managed: () => [...pasteKeys.all, 'managed'] as const,
  lists: () => [...pasteKeys.managed(), 'list'] as const,
  list: (scope: ManagementScope, params: PasteListParams) => [...pasteKeys.lists(), scope, params] as const,
  detail: (scope: ManagementScope, id: string) => [...pasteKeys.managed(), 'detail', scope, id] as const,
};
