/**
 * The explorer's calls to the file-system API (docs/product.md §7 "Filesystem"): the admin uses /admin/fs, a
 * key or a member /user/fs (the server confines them to their base path, or home and extra paths). Listings are cached per folder;
 * a change refreshes only the folders it touched.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FileItem,
  FolderShareDetail,
  FsFileLinkAnswer,
  FsInfoAnswer,
  FsListingAnswer,
  FsTaskAnswer,
  FsTaskKind,
} from '@cubby/shared';
import { bareEtag } from '@cubby/shared';
import { useCallback } from 'react';
import { ApiError, api, fetchWithCredential, getApiBaseUrl } from '../../../lib/api/index.ts';
import { i18n } from '../../../lib/i18n/index.ts';
import { recallDirectory, rememberDirectory } from '../../../lib/offline/directory-records.ts';
import { routeScope, useAuthStore } from '../../auth/index.ts';
import type { ShareInput } from '../../upload/index.ts';
import { folderPath } from '../explorer-model.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

export type FsTree = 'admin' | 'user';

/** The tree the signed-in principal uses. */
export function useFsTree(): FsTree {
  return useAuthStore(routeScope);
}

const base = (tree: FsTree) => `/${tree}/fs`;
const query = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();

export const fsKeys = {
  all: (tree: FsTree) => ['fs', tree] as const,
  list: (tree: FsTree, path: string) => [...fsKeys.all(tree), 'list', folderPath(path)] as const,
  info: (tree: FsTree, path: string) => [...fsKeys.all(tree), 'info', path] as const,
  tasks: (tree: FsTree) => ['fs-tasks', tree] as const,
};

/** The credential of the session, or null when signed out (compared, never stored). */
function signedInAs(): string | null {
  const state = useAuthStore.getState();
  return state.adminToken ?? state.apiKey ?? null;
}

/**
 * A folder's listing; each one read is kept on the device (lib/offline, deleted at logout), and
 * without a network the kept copy is shown with the header's offline mark. `refresh` asks the
 * server to read the storage rather than its cache.
 */
async function readListing(
  tree: FsTree,
  path: string,
  signal?: AbortSignal,
  refresh = false,
): Promise<FsListingAnswer> {
  const folder = folderPath(path);
  const recordKey = `${tree}:${folder}`;
  const session = signedInAs();
  try {
    const params: Record<string, string | boolean> = refresh ? { path: folder, refresh } : { path: folder };
    const listing = await api.get<FsListingAnswer>(`${base(tree)}/list?${query(params)}`, { signal });
    // Not kept when the session ended meanwhile: logout has already deleted the kept listings.
    if (session !== null && signedInAs() === session)
      void rememberDirectory(recordKey, listing).catch(() => undefined);
    return listing;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'NETWORK')) throw error;
    const kept = await recallDirectory<FsListingAnswer>(recordKey).catch(() => null);
    if (!kept) throw error;
    return kept.listing;
  }
}

export const listingQueryOptions = (tree: FsTree, path: string) =>
  queryOptions({
    queryKey: fsKeys.list(tree, path),
    queryFn: ({ signal }) => readListing(tree, path, signal),
    // Offline too: the kept copy answers (React Query would otherwise pause until back online).
    networkMode: 'always',
    // A 403/404 will not heal by asking again.
    retry: (count, error) =>
      count < 2 && !(error instanceof ApiError && [401, 403, 404].includes(error.status)),
  });

export function useListing(tree: FsTree, path: string, enabled = true) {
  return useQuery({ ...listingQueryOptions(tree, path), enabled });
}

/** A file's facts with its signed preview and download URLs (they expire: refetched after a minute). */
export const infoQueryOptions = (tree: FsTree, path: string) =>
  queryOptions({
    queryKey: fsKeys.info(tree, path),
    queryFn: ({ signal }) => api.get<FsInfoAnswer>(`${base(tree)}/get?${query({ path })}`, { signal }),
    staleTime: 60_000,
    retry: false,
  });

export const makeFolder = (tree: FsTree, path: string) => api.post<unknown>(`${base(tree)}/mkdir`, { path });

export const renameEntry = (tree: FsTree, oldPath: string, newPath: string) =>
  api.post<unknown>(`${base(tree)}/rename`, { oldPath, newPath });

export interface RemoveResult {
  success: number;
  failed: { path: string; error: string }[];
}

export const removeEntries = (tree: FsTree, paths: string[]) =>
  api.post<RemoveResult>(`${base(tree)}/batch-remove`, { paths });

export const saveText = (tree: FsTree, path: string, content: string, etag?: string) =>
  api.post<{ path: string; etag: string | null; isNewFile: boolean }>(`${base(tree)}/update`, {
    path,
    content,
    ...(etag ? { etag } : {}),
  });

export const fileLink = (tree: FsTree, path: string, expiresIn: number, forceDownload: boolean) =>
  api.get<FsFileLinkAnswer>(
    `${base(tree)}/file-link?${query({ path, expires_in: expiresIn, force_download: forceDownload })}`,
  );

/** A text file's content for the editor (at most `limit` bytes; larger files are refused). */
export async function readText(
  tree: FsTree,
  path: string,
  limit: number,
  signal?: AbortSignal,
): Promise<{ text: string; etag: string | null }> {
  const response = await fetchWithCredential(`${base(tree)}/download?${query({ path })}`, signal);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(body?.message ?? String(i18n.t('errors.http', { status: response.status })), {
      status: response.status,
      code: 'HTTP',
    });
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) {
    await response.body?.cancel();
    throw new ApiError(String(i18n.t('explorer.editor.tooLarge')), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  }
  const header = response.headers.get('etag');
  const etag = header === null ? null : bareEtag(header);
  return { text: await response.text(), etag };
}

/** Refreshes the listings of the given folders (and every file fact, whose links may be stale). */
export function useRefreshFolders(tree: FsTree) {
  const client = useQueryClient();
  return useCallback(
    (...folders: string[]) =>
      Promise.all([
        ...folders.map((folder) => refreshAfterChange(client, { queryKey: fsKeys.list(tree, folder) })),
        refreshAfterChange(client, { queryKey: [...fsKeys.all(tree), 'info'] }),
      ]),
    [client, tree],
  );
}

/**
 * The Refresh button: a folder read again from the storage past the server's cache (a change made
 * behind the server's back shows), and every file fact asked again.
 */
export function useReloadFolder(tree: FsTree) {
  const client = useQueryClient();
  return useCallback(
    async (folder: string) => {
      const queryKey = fsKeys.list(tree, folder);
      // An answer already on its way may be the cached one: it must not land after this.
      await client.cancelQueries({ queryKey });
      client.setQueryData(queryKey, await readListing(tree, folder, undefined, true));
      await refreshAfterChange(client, { queryKey: [...fsKeys.all(tree), 'info'] });
    },
    [client, tree],
  );
}

/** Starts a copy or move of entries into a folder; the server runs it as a task. */
export const startTask = (
  tree: FsTree,
  kind: FsTaskKind,
  items: { sourcePath: string; targetPath: string }[],
  skipExisting: boolean,
) => api.post<FsTaskAnswer>(`${base(tree)}/tasks`, { kind, items, skipExisting });

/** Cancels a running task, or forgets a finished one. */
export const dropTask = (tree: FsTree, id: string) =>
  api.delete<unknown>(`${base(tree)}/tasks/${encodeURIComponent(id)}`);

/** Runs a failed task again: only what failed. */
export const retryTask = (tree: FsTree, id: string) =>
  api.post<FsTaskAnswer>(`${base(tree)}/tasks/${encodeURIComponent(id)}/retry`);

/** Forgets the caller's finished tasks. */
export const clearFinishedTasks = (tree: FsTree) =>
  api.post<{ clearedCount: number }>(`${base(tree)}/tasks/clear`);

const isActive = (task: FsTaskAnswer) => task.status === 'pending' || task.status === 'running';

/** The caller's tasks, newest first; asked again every second while one is under way. */
export function useTasks(tree: FsTree) {
  return useQuery({
    queryKey: fsKeys.tasks(tree),
    queryFn: ({ signal }) => api.get<FsTaskAnswer[]>(`${base(tree)}/tasks`, { signal }),
    refetchInterval: (query) => ((query.state.data ?? []).some(isActive) ? 1000 : false),
  });
}

export { isActive as isTaskActive };

/** The URL of an fs route, for requests the page sends itself (uploads with progress). */
export const fsUrl = (tree: FsTree, route: string, params?: Record<string, string | number>) =>
  `${getApiBaseUrl()}${base(tree)}/${route}${params ? `?${query(params)}` : ''}`;

export interface RelayUpload {
  uploadId: string;
  /** The file's path; every later call names the upload by it. */
  key: string;
  recommendedPartSize?: number;
}

/** Starts a relay upload of `filename` into `folder` (the parts go through this server). */
export const startRelay = (tree: FsTree, folder: string, filename: string, fileSize: number) =>
  api.post<RelayUpload>(`${base(tree)}/multipart/init`, { path: folder, filename, fileSize });

/** The parts the storage holds for a relay upload (what a resumed upload need not send again). */
export const relayParts = (tree: FsTree, key: string, uploadId: string) =>
  api.get<{ parts: { partNumber: number; etag: string; size?: number }[] }>(
    `${base(tree)}/multipart/parts?${query({ key, uploadId })}`,
  );

export const finishRelay = (
  tree: FsTree,
  key: string,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
) => api.post<{ path: string }>(`${base(tree)}/multipart/complete`, { key, uploadId, parts });

export const abortRelay = (tree: FsTree, key: string, uploadId: string) =>
  api.post<unknown>(`${base(tree)}/multipart/abort`, { key, uploadId });

/** A new folder share: a read-only link to a mount folder (POST /api/fs/create-share). */
export const shareFolder = (path: string, settings: ShareInput) =>
  api.post<FolderShareDetail>('/fs/create-share', { path, ...settings });

/** A new file share of a mount file (the file stays in the mount when the share ends). */
export const shareFile = (tree: FsTree, path: string, settings: ShareInput) =>
  api.post<FileItem & { urls: { previewUrl: string; downloadUrl: string } }>(`${base(tree)}/share`, {
    path,
    ...settings,
  });
