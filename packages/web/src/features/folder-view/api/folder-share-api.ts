/**
 * Reading a folder share (docs/api.md, "Folder shares"): its details — which count the visit and
 * carry the visit's token — the password check (the same, for a protected share), the listing of a
 * folder below it, and the addresses of a file and of a zip, which carry the token so a browser
 * opens them with a plain GET. The details are fetched once per page (a refetch would count again).
 */
import type { FolderShareInfo, FolderShareListing } from '@cubby/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, getApiBaseUrl, isApiError } from '../../../lib/api/index.ts';

const sharePath = (slug: string) => `/public/folders/${encodeURIComponent(slug)}`;
// Not found and gone are answers, not hiccups.
const retry = (count: number, error: Error) =>
  !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 2;

export const verifyFolderPassword = (slug: string, password: string) =>
  api.post<FolderShareInfo>(`${sharePath(slug)}/verify`, { password }, { credential: null });

export function useFolderShare(slug: string) {
  return useQuery(
    queryOptions({
      queryKey: ['folder-shares', 'public', slug] as const,
      queryFn: ({ signal }) => api.get<FolderShareInfo>(sharePath(slug), { signal, credential: null }),
      retry,
      staleTime: Infinity,
      gcTime: 0,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    }),
  );
}

export function useFolderListing(slug: string, path: string, token: string | undefined) {
  return useQuery({
    queryKey: ['folder-shares', 'list', slug, path, token] as const,
    queryFn: ({ signal }) =>
      api.get<FolderShareListing>(
        `${sharePath(slug)}/list?path=${encodeURIComponent(path)}&token=${encodeURIComponent(token ?? '')}`,
        { signal, credential: null },
      ),
    enabled: token !== undefined,
    retry,
    refetchOnWindowFocus: false,
  });
}

/** The address of a file of the share (`inline`: shown in the browser when that is safe). */
export function folderFileUrl(slug: string, path: string, token: string, inline = false): string {
  const query = `path=${encodeURIComponent(path)}&token=${encodeURIComponent(token)}`;
  return `${getApiBaseUrl()}${sharePath(slug)}/download?${query}${inline ? '&inline=1' : ''}`;
}

/** The address of a zip of the folder `path` of the share. */
export function folderZipUrl(slug: string, path: string, token: string): string {
  return `${getApiBaseUrl()}${sharePath(slug)}/zip?path=${encodeURIComponent(path)}&token=${encodeURIComponent(token)}`;
}
