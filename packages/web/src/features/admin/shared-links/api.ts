/**
 * Bundles and folder links as their owner (the admin: everyone's) manages them (docs/api.md "Bundles",
 * "Folder shares"): `GET /api/bundles?limit&offset` (paged), `GET /api/bundles/:slug` (with its items),
 * `GET /api/folder-shares`, `PUT` and `DELETE` (revoke) of each by its slug.
 */
import type { BundleDetail, BundleSummary, FolderShareDetail } from '@cubby/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';
import type { LinkUpdateBody } from './link-form.ts';

export type LinkKind = 'bundle' | 'folder';
/** Bundles per page. */
export const BUNDLE_PAGE_SIZE = 50;

const ROOT = ['shared-links'] as const;
const base = (kind: LinkKind) => (kind === 'bundle' ? '/bundles' : '/folder-shares');
const linkPath = (kind: LinkKind, slug: string) => `${base(kind)}/${encodeURIComponent(slug)}`;

export interface BundlePage {
  bundles: BundleSummary[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

export function useBundles(page: number, enabled: boolean) {
  return useQuery({
    queryKey: [...ROOT, 'bundles', page],
    queryFn: ({ signal }) =>
      api.get<BundlePage>(`/bundles?limit=${BUNDLE_PAGE_SIZE}&offset=${(page - 1) * BUNDLE_PAGE_SIZE}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useFolderShares(enabled: boolean) {
  return useQuery({
    queryKey: [...ROOT, 'folders'],
    queryFn: ({ signal }) => api.get<FolderShareDetail[]>('/folder-shares', { signal }),
    enabled,
  });
}

/** A bundle with its items, read when its edit dialog opens. */
export function useBundleDetail(slug: string | undefined) {
  return useQuery({
    queryKey: [...ROOT, 'bundle', slug],
    queryFn: ({ signal }) => api.get<BundleDetail>(linkPath('bundle', slug!), { signal }),
    enabled: slug !== undefined,
    // Always what the server holds now: the dialog sends the list back.
    gcTime: 0,
  });
}

function useLinkMutation<TInput>(mutationFn: (input: TInput) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // The variables of an update may hold a new password: forget the finished mutation at once.
    gcTime: 0,
    onSettled: () => refreshAfterChange(queryClient, { queryKey: ROOT }),
  });
}

export const useUpdateLink = () =>
  useLinkMutation(
    ({
      kind,
      slug,
      body,
    }: {
      kind: LinkKind;
      slug: string;
      body: LinkUpdateBody & { items?: { type: string; value: string }[] };
    }) => api.put<unknown>(linkPath(kind, slug), body),
  );

/** Revokes: the link answers 410 from the next request on; it stays listed as revoked. */
export const useRevokeLink = () =>
  useLinkMutation(({ kind, slug }: { kind: LinkKind; slug: string }) =>
    api.delete<unknown>(linkPath(kind, slug)),
  );
