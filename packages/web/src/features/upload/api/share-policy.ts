/**
 * GET /public/share-policy (docs/api.md, "Share policy"): the limits the admin set for every share,
 * which the upload page and Home show before the user starts and check files against.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharePolicy } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';

export const sharePolicyQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'share-policy'] as const,
    queryFn: ({ signal }) => api.get<SharePolicy>('/public/share-policy', { signal }),
    staleTime: 60_000,
  });

/** The share policy, or null while unknown. */
export function useSharePolicy(): SharePolicy | null {
  return useQuery(sharePolicyQueryOptions()).data ?? null;
}
