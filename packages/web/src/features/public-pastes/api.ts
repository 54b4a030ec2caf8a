/**
 * The public paste page's calls (docs/api.md, "Public pastes"): whether the admin turned it on
 * (GET /public/pastes/status, asked once per visit by the layout's link), and one page of the list
 * (GET /public/pastes?limit&offset; titles, languages and sizes, never text).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PublicPasteItem } from '@cubby/shared';
import { api, apiRequest } from '../../lib/api/index.ts';

export const PUBLIC_PAGE_SIZE = 20;

const keys = {
  status: ['public-pastes', 'status'] as const,
  page: (page: number) => ['public-pastes', 'list', page] as const,
};

export function usePublicPastesEnabled(): boolean {
  const status = useQuery({
    queryKey: keys.status,
    queryFn: ({ signal }) => api.get<{ enabled: boolean }>('/public/pastes/status', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return status.data?.enabled === true;
}

export interface PublicPastePage {
  items: PublicPasteItem[];
  total: number;
}

export function usePublicPastes(page: number) {
  return useQuery({
    queryKey: keys.page(page),
    queryFn: async ({ signal }): Promise<PublicPastePage> => {
      const query = new URLSearchParams({
        limit: String(PUBLIC_PAGE_SIZE),
        offset: String((page - 1) * PUBLIC_PAGE_SIZE),
      });
      const body = (await apiRequest<PublicPasteItem[]>(`/public/pastes?${query}`, { signal })) as {
        data: PublicPasteItem[];
        pagination?: { total?: number };
      };
      const items = Array.isArray(body.data) ? body.data : [];
      return { items, total: body.pagination?.total ?? items.length };
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
}
