/**
 * Copy or move the selection into another folder, on this mount or another: a folder picker that
 * walks the tree (folders only), then a server task (its progress is in the task list). A folder
 * cannot go into itself or below itself, and the folder it is already in is no target.
 */
import type { FsListItem, FsTaskKind } from '@cubby/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog, DialogActions } from '../../../components/dialog.tsx';
import { Checkbox } from '../../../components/form-field.tsx';
import { FolderButtons } from '../../../components/folder-buttons.tsx';
import { ArrowUpIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { fsKeys, startTask, useListing, type FsTree } from '../api/fs-api.ts';
import { breadcrumb, childPath, folderPath, parentFolder } from '../explorer-model.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

/** Why `target` cannot receive `items`, or null. */
export function targetProblem(
  items: readonly FsListItem[],
  from: string,
  target: string,
): 'same' | 'inside' | null {
  if (folderPath(target) === folderPath(from)) return 'same';
  if (items.some((item) => item.isDirectory && folderPath(target).startsWith(folderPath(item.path))))
    return 'inside';
  return null;
}

export function CopyMoveDialog({
  tree,
  kind,
  items,
  from,
  onStarted,
  onClose,
}: {
  tree: FsTree;
  kind: FsTaskKind;
  items: FsListItem[];
  /** The folder the items are in. */
  from: string;
  onStarted(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [at, setAt] = useState(from);
  const [replace, setReplace] = useState(false);
  const client = useQueryClient();
  const listing = useListing(tree, at);
  const folders = (listing.data?.items ?? []).filter((item) => item.isDirectory);
  const problem = targetProblem(items, from, at);
  const writable = listing.data ? !listing.data.isVirtual && listing.data.hasPermission : false;
  const start = useMutation({
    mutationFn: () =>
      startTask(
        tree,
        kind,
        items.map((item) => ({
          sourcePath: item.path,
          targetPath: childPath(at, item.name, item.isDirectory),
        })),
        !replace,
      ),
    onSuccess: async () => {
      await refreshAfterChange(client, { queryKey: fsKeys.tasks(tree) });
      onStarted();
    },
  });
  const where = breadcrumb(at)
    .slice(1)
    .map((crumb) => crumb.name)
    .join(' / ');

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(`explorer.copyMove.title.${kind}`, { count: items.length })}
      description={t('explorer.copyMove.description')}
      testId="copy-move-dialog"
    >
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={at === '/'}
          onClick={() => setAt(parentFolder(at))}
          aria-label={t('explorer.up')}
          title={t('explorer.up')}
          data-testid="picker-up"
        >
          <ArrowUpIcon className="size-4" />
        </Button>
        <p className="min-w-0 truncate text-sm font-medium text-fg" data-testid="picker-path">
          {at === '/' ? t('explorer.root') : <span data-user-content="">{where}</span>}
        </p>
      </div>
      <div className="mt-3 max-h-64 min-h-32 overflow-y-auto rounded-md border border-border">
        {listing.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner className="size-5" />
          </div>
        ) : listing.error ? (
          <Alert tone="error">{listing.error.message}</Alert>
        ) : folders.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-fg-muted">{t('explorer.copyMove.noFolders')}</p>
        ) : (
          <FolderButtons
            folders={folders.map((folder) => ({
              ...folder,
              isVirtual: folder.isVirtual && Boolean(folder.mount_id),
            }))}
            label={t('explorer.copyMove.folders')}
            enterLabel={(name) => t('explorer.copyMove.enter', { name })}
            onOpen={setAt}
          />
        )}
      </div>
      <Checkbox
        className="mt-3"
        label={t('explorer.copyMove.replace')}
        checked={replace}
        onChange={(event) => setReplace(event.target.checked)}
        data-testid="picker-replace"
      />
      {listing.data && problem && (
        <p className="mt-3 text-sm text-warning-text" data-testid="picker-problem">
          {t(`explorer.copyMove.problems.${problem}`)}
        </p>
      )}
      {start.error && (
        <Alert tone="error" className="mt-3">
          {start.error.message}
        </Alert>
      )}
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          disabled={!writable || problem !== null || start.isPending}
          onClick={() => start.mutate()}
          data-testid="picker-confirm"
        >
          {start.isPending && <Spinner className="size-4 text-accent-fg" />}
          {t(`explorer.copyMove.confirm.${kind}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
