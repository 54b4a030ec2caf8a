/**
 * The dashboard's calls: its figures (GET /admin/dashboard/stats), the directory cache counters
 * (GET /admin/cache/stats) and clearing the cache of one mount or of all (POST /admin/cache/clear).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CacheCounters, DashboardStats, MountCacheCounters } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

const keys = {
  stats: ['dashboard', 'stats'] as const,
  cache: ['dashboard', 'cache'] as const,
};

export function useDashboardStats() {
  return useQuery({
    queryKey: keys.stats,
    queryFn: ({ signal }) => api.get<DashboardStats>('/admin/dashboard/stats', { signal }),
  });
}

export function useCacheStats() {
  return useQuery({
    queryKey: keys.cache,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ cache: { directory: CacheCounters; mounts?: MountCacheCounters[] } }>(
          '/admin/cache/stats',
          { signal },
        )
      ).cache,
  });
}

/** Clears the listings of one mount (`mountId`) or, without it, every cached listing. */
export function useClearCache() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mountId?: string) =>
      api.post<{ clearedCount: number }>('/admin/cache/clear', mountId ? { mountId } : {}),
    onSettled: () => refreshAfterChange(client, { queryKey: keys.cache }),
  });
}
