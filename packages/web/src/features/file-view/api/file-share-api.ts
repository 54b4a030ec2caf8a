/**
 * Reading a file share (docs/api.md, "Sharing files"): its public details, which never
 * count a view, and the password check, whose answer carries URLs with a short-lived token. The
 * unlocked answer is kept by the page only, never in the query cache. Also the link an online Office
 * viewer may fetch (when the admin turned Office preview on).
 */
import type { FileShare, OfficePreviewAnswer } from '@cubby/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api/index.ts';

const sharePath = (slug: string) => `/public/files/${encodeURIComponent(slug)}`;

export const getPublicFile = (slug: string, signal?: AbortSignal) =>
  api.get<FileShare>(sharePath(slug), { signal });

export const verifyFilePassword = ({ slug, password }: { slug: string; password: string }) =>
  api.post<FileShare>(`${sharePath(slug)}/verify`, { password });

export const publicFileQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['files', 'public', slug] as const,
    queryFn: ({ signal }) => getPublicFile(slug, signal),
    // Not found and gone are answers, not hiccups.
    retry: (count, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 2,
    refetchOnWindowFocus: false,
  });

export function usePublicFile(slug: string) {
  return useQuery(publicFileQueryOptions(slug));
}

/** GET /office-preview/:slug with the page's share token (which stands for a password given). */
export const getOfficePreview = ({ slug, token }: { slug: string; token?: string | undefined }) =>
  api.get<OfficePreviewAnswer>(
    `/office-preview/${encodeURIComponent(slug)}${token ? `?token=${encodeURIComponent(token)}` : ''}`,
    // A public route: no session credential goes with it.
    { credential: null },
  );

export function useOfficePreview() {
  return useMutation({ mutationFn: getOfficePreview, gcTime: 0 });
}
