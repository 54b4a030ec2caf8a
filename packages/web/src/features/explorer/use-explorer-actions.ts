/**
 * What the explorer does to storage: each action calls the fs API, says how it went in a toast (the
 * server's message, in the UI language, when it fails) and refreshes only the folder it changed.
 */
import type { FsListItem } from '@cubby/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../components/toast/toast-store.ts';
import { api } from '../../lib/api/index.ts';
import { downloadFromUrl } from '../../lib/download.ts';
import {
  infoQueryOptions,
  makeFolder,
  removeEntries,
  renameEntry,
  useRefreshFolders,
  useReloadFolder,
  type FsTree,
} from './api/fs-api.ts';
import { childPath, nameProblem } from './explorer-model.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useExplorerActions({
  tree,
  folder,
  names,
}: {
  tree: FsTree;
  folder: string;
  /** The names in the folder (a new or renamed entry may not take one). */
  names: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refreshFolders = useRefreshFolders(tree);
  const reloadFolder = useReloadFolder(tree);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);

  /** After a change made here: the server has forgotten what it cached, the folder is asked again. */
  const refresh = useCallback(() => refreshFolders(folder), [refreshFolders, folder]);

  /** The Refresh button: the folder as the storage holds it now, past the server's cache. */
  const reload = useCallback(async () => {
    setReloading(true);
    try {
      await reloadFolder(folder);
    } catch (error) {
      showToast(messageOf(error), 'error');
    } finally {
      setReloading(false);
    }
  }, [reloadFolder, folder]);

  const createFolder = useCallback(
    async (name: string) => {
      await makeFolder(tree, childPath(folder, name, true));
      showToast(t('explorer.newFolder.done', { name }), 'success');
      await refresh();
    },
    [tree, folder, refresh, t],
  );

  const rename = useCallback(
    async (item: FsListItem, name: string) => {
      const others = new Set([...names].filter((taken) => taken !== item.name));
      const problem = nameProblem(name, others);
      if (problem) {
        showToast(t(`explorer.nameProblems.${problem}`), 'error');
        return;
      }
      try {
        await renameEntry(tree, item.path, childPath(folder, name, item.isDirectory));
        showToast(t('explorer.rename.done', { from: item.name, to: name }), 'success');
      } catch (error) {
        showToast(messageOf(error), 'error');
      }
      await refresh();
    },
    [names, tree, folder, refresh, t],
  );

  const remove = useCallback(
    async (items: FsListItem[]) => {
      setRemoving(true);
      setRemoveError(null);
      try {
        const result = await removeEntries(
          tree,
          items.map((item) => item.path),
        );
        await refresh();
        if (result.failed.length > 0) {
          setRemoveError(
            t('explorer.delete.partly', {
              failed: result.failed.length,
              first: `${result.failed[0]!.path}: ${result.failed[0]!.error}`,
            }),
          );
          return false;
        }
        showToast(t('explorer.delete.done', { count: items.length }), 'success');
        return true;
      } catch (error) {
        setRemoveError(messageOf(error));
        return false;
      } finally {
        setRemoving(false);
      }
    },
    [tree, refresh, t],
  );

  /** One file through its signed download link; folders and several entries as one zip. */
  const download = useCallback(
    async (items: FsListItem[]) => {
      try {
        const only = items.length === 1 ? items[0]! : null;
        if (only && !only.isDirectory) {
          const info = await client.fetchQuery({ ...infoQueryOptions(tree, only.path), staleTime: 0 });
          if (!info.download_url) throw new Error(t('explorer.download.unavailable'));
          downloadFromUrl(info.download_url);
          return;
        }
        const link = await api.post<{ url: string }>(`/${tree}/fs/zip-link`, {
          paths: items.map((item) => item.path),
        });
        showToast(t('explorer.download.zipStarted'), 'info');
        downloadFromUrl(link.url);
      } catch (error) {
        showToast(messageOf(error), 'error');
      }
    },
    [client, tree, t],
  );

  return {
    refresh,
    reload,
    reloading,
    makeFolder: createFolder,
    rename,
    remove,
    removing,
    removeError,
    download,
  };
}
