/**
 * What the upload form offers besides the storage configs (the storage-config feature's query, so
 * edits there refresh the picker): the config to preselect, and the server's largest upload size,
 * shown before the user starts and enforced here too. The same answer says whether uploads into
 * mounts publish file shares (the explorer and the API key form say so).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMaxUploadSize } from './upload-api.ts';

export const maxUploadSizeQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'max-upload-size'] as const,
    queryFn: ({ signal }) => getMaxUploadSize(signal),
    staleTime: 60_000,
  });

/** The largest upload in bytes, or null while unknown. */
export function useMaxUploadBytes(): number | null {
  const { data } = useQuery(maxUploadSizeQueryOptions());
  const bytes = Number(data?.max_upload_bytes);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

/**
 * Whether uploads into mounts publish file shares (the explorer and the API: `fs`; WebDAV: `webdav`),
 * as the server's settings say; null while unknown.
 */
export function useUploadShares(): { fs: boolean; webdav: boolean } | null {
  const { data } = useQuery(maxUploadSizeQueryOptions());
  if (!data) return null;
  return { fs: data.fs_upload_share !== false, webdav: data.webdav_upload_share === true };
}

/** The config to preselect: the default one, else the first. */
export function defaultConfigId(configs: readonly { id: string; is_default: number }[]): string | null {
  return (configs.find((config) => config.is_default === 1) ?? configs[0])?.id ?? null;
}
