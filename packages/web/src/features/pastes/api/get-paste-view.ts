/**
 * GET /paste/:slug: a reader opens a paste. Every answer with content counts a view, so the query
 * is fetched once per page view: never stale, never retried, never refetched on focus, reconnect
 * or remount. A protected paste answers `requiresPassword` without content (no view counted).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasteDetail, PasteView } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { pasteKeys } from './query-keys.ts';

export function getPasteView(slug: string, signal?: AbortSignal): Promise<PasteView> {
  return api.get<PasteView>(`/paste/${encodeURIComponent(slug)}`, { signal });
}

export const pasteViewQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: pasteKeys.view(slug),
    // No abort signal: a request that reached the server has counted its view, so its answer is
    // kept even if the component that asked went away (React strict mode mounts twice).
    queryFn: () => getPasteView(slug),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });

export function usePasteView(slug: string) {
  return useQuery(pasteViewQueryOptions(slug));
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
    title: detail.title,
    is_public: detail.is_public,
    ...(detail.files ? { files: detail.files } : {}),
  };
}
