/**
 * Mount explorer, /mount-explorer/<path…> (docs/product.md §2): the folder named by the URL (so back/forward,
 * reload and shared links work), with its breadcrumb, a list or grid of its entries, selection and
 * keyboard as in a desktop file manager, and the actions on the selection (toolbar, right-click,
 * keys). `?preview=<name>` shows a file of the folder. The route guard keeps a key user inside its
 * base path.
 */
import type { FsListItem, FsTaskKind } from '@cubby/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { normalizePath } from '@cubby/shared';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Dialog } from '../../components/dialog.tsx';
import {
  ArchiveIcon,
  ArrowUpIcon,
  DownloadIcon,
  FolderPlusIcon,
  GridViewIcon,
  LinkIcon,
  ListViewIcon,
  PencilIcon,
  RefreshIcon,
  TrashIcon,
  EyeIcon,
  CopyIcon,
  MoveIcon,
  TasksIcon,
  ExternalLinkIcon,
} from '../../components/icons.tsx';
import { EmptyState, LoadError } from '../../components/list-states.tsx';
import { SearchField } from '../../components/search-field.tsx';
import { PageLoading } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { useAuthStore } from '../auth/index.ts';
import { ShareAsBundle } from '../bundle-view/index.ts';
import { fsKeys, listingQueryOptions, useFsTree, useListing } from './api/fs-api.ts';
import { DropUploads, UploadButtons } from './components/upload-buttons.tsx';
import { UploadPanel } from './components/upload-panel.tsx';
import { onUploaded, useExplorerUploads, type UploadSource } from './uploads/upload-store.ts';
import { CopyMoveDialog } from './components/copy-move-dialog.tsx';
import { TasksDialog } from './components/tasks-dialog.tsx';
import { useTaskWatch } from './use-task-watch.ts';
import { ContextMenu, type MenuAction, type MenuAnchor } from './components/context-menu.tsx';
import { EntryGrid, EntryList, type EntriesViewProps } from './components/entry-views.tsx';
import { ExplorerBreadcrumb } from './components/explorer-breadcrumb.tsx';
import { SelectionBar } from './components/selection-bar.tsx';
import { LinkDialog, NewFolderDialog, ShareDialog } from './components/explorer-dialogs.tsx';
import { PreviewDialog } from './components/preview-dialog.tsx';
import { TextEditorDialog } from './components/text-editor-dialog.tsx';
import { filterItems, folderPath, parentFolder, sortItems } from './explorer-model.ts';
import { useExplorerPreferences } from './explorer-preferences.ts';
import { useExplorerActions } from './use-explorer-actions.ts';
import {
  EMPTY_SELECTION,
  clickSelect,
  keepExisting,
  moveFocus,
  selectAll,
  type ClickMode,
  type Selection,
} from './selection.ts';
import { AccessNotice } from '../../components/access-notice.tsx';
import { isApiError } from '../../lib/api/index.ts';
import { FolderPasswordForm, FolderReadme, passwordFolderOf } from './components/folder-rules.tsx';
import { refreshAfterChange } from '../../lib/query/refresh.ts';

type Modal =
  | { kind: 'newFolder' }
  | { kind: 'delete'; items: FsListItem[] }
  | { kind: 'link'; item: FsListItem }
  | { kind: 'share'; item: FsListItem }
  | { kind: 'bundle'; items: FsListItem[] }
  | { kind: 'edit'; item: FsListItem }
  | { kind: 'copyMove'; mode: FsTaskKind; items: FsListItem[] }
  | { kind: 'tasks' };

export default function MountExplorerPage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.mountExplorer'));
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const canMount = useAuthStore((state) => state.hasPermission('mount'));

  // Signed out, the explorer tries as the guest (docs/accounts.md, "Guests"); a 401 shows the notice.
  if (signedIn && !canMount) {
    return (
      <div className="space-y-4">
        <ExplorerHeading />
        <AccessNotice
          signedIn={signedIn}
          message={t('explorer.notice.keyWithoutMount')}
          testId="explorer-notice"
        />
      </div>
    );
  }
  return <ExplorerAtUrl />;
}

/** A new folder starts fresh: nothing selected, no filter, no rename under way. */
function ExplorerAtUrl() {
  const { pathname } = useLocation();
  const folder = folderPath(normalizePath(paths.mountExplorer.pathFromPathname(pathname)) ?? '/');
  return <Explorer key={folder} folder={folder} />;
}

function SignedOutNotice() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <ExplorerHeading />
      <AccessNotice signedIn={false} message={t('explorer.notice.signedOut')} testId="explorer-notice" />
    </div>
  );
}

function ExplorerHeading() {
  const { t } = useTranslation();
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('explorer.heading')}</h1>
      <p className="mt-1 text-sm text-fg-muted">{t('explorer.description')}</p>
    </div>
  );
}

function Explorer({ folder }: { folder: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const previewName = searchParams.get('preview');
  const tree = useFsTree();
  const listing = useListing(tree, folder);
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const passwordFolder = passwordFolderOf(listing.error);
  const { view, setView, sort, sortBy } = useExplorerPreferences();
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter);
  const [chosen, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [renaming, setRenaming] = useState<string | null>(null);
  // A bundle is a share: a key needs the file or text permission to make one (docs/api.md "Bundles").
  const canBundle = useAuthStore((state) => state.hasPermission('file') || state.hasPermission('text'));
  const [menu, setMenu] = useState<{ anchor: MenuAnchor; items: FsListItem[] } | null>(null);
  const [modal, setModal] = useState<Modal | null>(null);
  const gridId = useId();
  const filterId = useId();

  const allItems = useMemo(() => listing.data?.items ?? [], [listing.data]);
  const sorted = useMemo(() => sortItems(allItems, sort), [allItems, sort]);
  const items = useMemo(() => filterItems(sorted, deferredFilter), [sorted, deferredFilter]);
  const order = useMemo(() => items.map((item) => item.path), [items]);
  // What was chosen, less what left the folder or the filter (deleted, renamed, refreshed away).
  const selection = useMemo(() => keepExisting(chosen, order), [chosen, order]);
  const files = useMemo(() => items.filter((item) => !item.isDirectory), [items]);
  const names = useMemo(() => new Set(allItems.map((item) => item.name)), [allItems]);
  const selectedItems = useMemo(
    () => items.filter((item) => selection.selected.has(item.path)),
    [items, selection.selected],
  );
  const inStorage = listing.data ? !listing.data.isVirtual && listing.data.hasPermission : false;
  // May write here: a read-only grant (a member's, the guest's) shows no upload, rename or delete.
  const writableHere = inStorage && (listing.data?.writable ?? true);
  const actions = useExplorerActions({ tree, folder, names });
  const runningTasks = useTaskWatch(tree);
  const client = useQueryClient();
  // A stored upload may have made folders too: every listing of the tree is asked again.
  useEffect(
    () =>
      onUploaded((of) => {
        if (of === tree) void refreshAfterChange(client, { queryKey: [...fsKeys.all(tree), 'list'] });
      }),
    [client, tree],
  );
  const upload = useCallback(
    (sources: UploadSource[]) => {
      if (sources.length === 0) return;
      void useExplorerUploads
        .getState()
        .add(tree, folder, sources, async (where) =>
          where === folder
            ? names
            : new Set((await client.fetchQuery(listingQueryOptions(tree, where))).items.map((i) => i.name)),
        );
    },
    [client, folder, names, tree],
  );

  const go = useCallback((path: string) => navigate(paths.mountExplorer.getHref(path)), [navigate]);
  const showPreview = useCallback(
    (item: FsListItem | null) =>
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (item) next.set('preview', item.name);
          else next.delete('preview');
          return next;
        },
        { replace: item !== null && searchParams.has('preview') },
      ),
    [searchParams, setSearchParams],
  );
  const open = useCallback(
    (item: FsListItem) => (item.isDirectory ? go(item.path) : showPreview(item)),
    [go, showPreview],
  );
  const previewItem = previewName
    ? allItems.find((item) => !item.isDirectory && item.name === previewName)
    : undefined;

  const select = (item: FsListItem, mode: ClickMode) =>
    setSelection((current) => clickSelect(current, order, item.path, mode));

  /** What the menu, the toolbar and the keys can do with these entries. */
  const actionsFor = (targets: FsListItem[]): MenuAction[] => {
    const one = targets.length === 1 ? targets[0] : undefined;
    const writable = writableHere && targets.every((item) => !item.isVirtual);
    const list: MenuAction[] = [];
    if (one)
      list.push({
        id: 'open',
        label: t('explorer.actions.open'),
        icon: <EyeIcon className="size-4" />,
        run: () => open(one),
      });
    if (targets.length > 0 && targets.every((item) => !item.isVirtual))
      list.push({
        id: 'download',
        label: t('explorer.actions.download'),
        icon: <DownloadIcon className="size-4" />,
        run: () => void actions.download(targets),
      });
    if (one && !one.isDirectory)
      list.push({
        id: 'link',
        label: t('explorer.actions.link'),
        icon: <LinkIcon className="size-4" />,
        run: () => setModal({ kind: 'link', item: one }),
      });
    // A file makes a file share, a folder a folder share (explorer-dialogs.tsx); a guest makes none.
    if (signedIn && one && !one.isVirtual)
      list.push({
        id: 'share',
        label: t('explorer.actions.share'),
        icon: <ExternalLinkIcon className="size-4" />,
        run: () => setModal({ kind: 'share', item: one }),
      });
    if (canBundle && targets.length > 1 && targets.every((item) => !item.isDirectory && !item.isVirtual))
      list.push({
        id: 'bundle',
        label: t('explorer.actions.bundle'),
        icon: <ArchiveIcon className="size-4" />,
        run: () => setModal({ kind: 'bundle', items: targets }),
      });
    // Copies run as tasks of a signed-in caller.
    if (signedIn && targets.length > 0 && targets.every((item) => !item.isVirtual))
      list.push({
        id: 'copy',
        label: t('explorer.actions.copy'),
        icon: <CopyIcon className="size-4" />,
        run: () => setModal({ kind: 'copyMove', mode: 'copy', items: targets }),
      });
    if (writable && targets.length > 0)
      list.push({
        id: 'move',
        label: t('explorer.actions.move'),
        icon: <MoveIcon className="size-4" />,
        run: () => setModal({ kind: 'copyMove', mode: 'move', items: targets }),
      });
    if (one && writable)
      list.push({
        id: 'rename',
        label: t('explorer.actions.rename'),
        icon: <PencilIcon className="size-4" />,
        run: () => setRenaming(one.path),
      });
    if (writable && targets.length > 0)
      list.push({
        id: 'delete',
        label: t('explorer.actions.delete'),
        icon: <TrashIcon className="size-4" />,
        danger: true,
        run: () => setModal({ kind: 'delete', items: targets }),
      });
    return list;
  };

  const openMenu = (item: FsListItem, anchor: MenuAnchor) => {
    const targets = selection.selected.has(item.path) ? selectedItems : [item];
    if (!selection.selected.has(item.path))
      setSelection((current) => clickSelect(current, order, item.path, 'replace'));
    setMenu({ anchor, items: targets });
  };

  const onKeyDown = (event: KeyboardEvent, columns: number) => {
    const mod = event.ctrlKey || event.metaKey;
    const focused = items.find((item) => item.path === selection.focus);
    const move = (delta: number) =>
      setSelection((current) => moveFocus(current, order, delta, event.shiftKey));
    switch (event.key) {
      case 'ArrowDown':
        move(columns);
        break;
      case 'ArrowUp':
        move(-columns);
        break;
      case 'ArrowRight':
        if (columns === 1) return;
        move(1);
        break;
      case 'ArrowLeft':
        if (columns === 1) return;
        move(-1);
        break;
      case 'Home':
        move(-order.length);
        break;
      case 'End':
        move(order.length);
        break;
      case 'Enter':
        if (focused) open(focused);
        break;
      case 'Backspace':
        if (folder !== '/') go(parentFolder(folder));
        break;
      case 'Delete':
        if (writableHere && selectedItems.length > 0 && selectedItems.every((item) => !item.isVirtual))
          setModal({ kind: 'delete', items: selectedItems });
        break;
      case 'F2':
        if (writableHere && focused && !focused.isVirtual) setRenaming(focused.path);
        break;
      case 'Escape':
        if (selection.selected.size === 0) return;
        setSelection(EMPTY_SELECTION);
        break;
      case ' ':
        if (focused) select(focused, mod ? 'toggle' : 'replace');
        break;
      case 'ContextMenu':
      case 'F10':
        if (event.key === 'F10' && !event.shiftKey) return;
        if (focused) {
          const row = document.querySelector(`[data-path="${CSS.escape(focused.path)}"]`);
          const box = row?.getBoundingClientRect();
          openMenu(focused, { x: (box?.left ?? 0) + 48, y: (box?.bottom ?? 0) + 4 });
        }
        break;
      default:
        if (mod && event.key.toLowerCase() === 'a') {
          setSelection((current) => selectAll(current, order));
          break;
        }
        return;
    }
    event.preventDefault();
  };

  const viewProps: EntriesViewProps = {
    tree,
    items,
    selection,
    id: gridId,
    label: t('explorer.entriesOf', { path: folder }),
    renaming,
    onRename: (item, name) => {
      setRenaming(null);
      void actions.rename(item, name);
    },
    onRenameEnd: () => setRenaming(null),
    onSelect: select,
    onOpen: open,
    onMenu: openMenu,
    onKeyDown,
  };

  const toolbarActions =
    selectedItems.length > 0 ? actionsFor(selectedItems).filter((action) => action.id !== 'open') : [];

  // Signed out and guests may not browse: the notice, as before guests existed.
  if (!signedIn && isApiError(listing.error) && listing.error.status === 401) return <SignedOutNotice />;

  return (
    <div className="space-y-4" data-testid="explorer">
      <ExplorerHeading />
      <div className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-3 shadow-card sm:p-4">
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={folder === '/'}
            onClick={() => go(parentFolder(folder))}
            aria-label={t('explorer.up')}
            title={t('explorer.up')}
            data-testid="explorer-up"
          >
            <ArrowUpIcon className="size-4" />
          </Button>
          <ExplorerBreadcrumb path={folder} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {writableHere && <UploadButtons onFiles={upload} />}
          {writableHere && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setModal({ kind: 'newFolder' })}
              data-testid="explorer-new-folder"
            >
              <FolderPlusIcon className="size-4" />
              {t('explorer.newFolder.open')}
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void actions.reload()}
            aria-label={t('explorer.refresh')}
            title={t('explorer.refresh')}
            data-testid="explorer-refresh"
          >
            <RefreshIcon
              className={`size-4 ${listing.isFetching || actions.reloading ? 'animate-spin' : ''}`}
            />
          </Button>
          {signedIn && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setModal({ kind: 'tasks' })}
              data-testid="explorer-tasks"
            >
              <TasksIcon className="size-4" />
              {t('explorer.tasks.open')}
              {runningTasks > 0 && (
                <span
                  className="rounded-full bg-accent px-1.5 text-xs text-accent-fg"
                  data-testid="tasks-running"
                >
                  {runningTasks}
                </span>
              )}
            </Button>
          )}
          <div
            role="group"
            aria-label={t('explorer.view.label')}
            className="inline-flex rounded-md border border-border"
          >
            {(['list', 'grid'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                aria-pressed={view === mode}
                aria-label={t(`explorer.view.${mode}`)}
                title={t(`explorer.view.${mode}`)}
                onClick={() => setView(mode)}
                className={`p-1.5 first:rounded-l-md last:rounded-r-md focus-visible:outline-2 focus-visible:outline-ring ${
                  view === mode ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:text-fg'
                }`}
                data-testid={`view-${mode}`}
              >
                {mode === 'list' ? <ListViewIcon className="size-4" /> : <GridViewIcon className="size-4" />}
              </button>
            ))}
          </div>
          <div className="ml-auto w-full sm:w-64">
            <SearchField
              id={filterId}
              label={t('explorer.filter.label')}
              placeholder={t('explorer.filter.placeholder')}
              value={filter}
              onChange={setFilter}
              testId="explorer-filter"
            />
          </div>
        </div>
      </div>

      <UploadPanel tree={tree} />
      {writableHere && <DropUploads folder={folder} onFiles={upload} />}
      <FolderReadme markdown={listing.data?.header_markdown} testId="folder-readme-header" />

      {listing.data && (
        <SelectionBar
          total={allItems.length}
          selected={selectedItems.length}
          actions={toolbarActions}
          onClear={() => setSelection(EMPTY_SELECTION)}
        />
      )}
      {listing.isPending ? (
        <PageLoading />
      ) : passwordFolder !== null ? (
        <FolderPasswordForm
          path={passwordFolder}
          onOpened={() => void client.invalidateQueries({ queryKey: fsKeys.all(tree) })}
        />
      ) : listing.error ? (
        <LoadError error={listing.error} onRetry={() => void listing.refetch()} />
      ) : allItems.length === 0 ? (
        folder === '/' ? (
          <EmptyState
            title={t('explorer.empty.noMounts')}
            description={t('explorer.empty.noMountsHint')}
            testId="explorer-empty"
          />
        ) : (
          <EmptyState
            title={t('explorer.empty.folder')}
            description={t('explorer.empty.folderHint')}
            testId="explorer-empty"
          />
        )
      ) : items.length === 0 ? (
        <EmptyState
          title={t('explorer.empty.noMatch')}
          description={t('explorer.empty.noMatchHint', { query: filter })}
          testId="explorer-no-match"
        />
      ) : view === 'list' ? (
        <EntryList {...viewProps} sort={sort} onSort={sortBy} />
      ) : (
        <EntryGrid {...viewProps} />
      )}
      <FolderReadme markdown={listing.data?.footer_markdown} testId="folder-readme-footer" />
      {menu && (
        <ContextMenu
          anchor={menu.anchor}
          label={t('explorer.menuFor', { count: menu.items.length, name: menu.items[0]?.name ?? '' })}
          actions={actionsFor(menu.items)}
          onClose={() => setMenu(null)}
        />
      )}
      {previewName && listing.data && !previewItem && (
        <Alert tone="warning" testId="preview-missing">
          {t('explorer.preview.missing', { name: previewName })}
        </Alert>
      )}
      {previewItem && (
        <PreviewDialog
          tree={tree}
          item={previewItem}
          files={files}
          canWrite={writableHere}
          onShow={showPreview}
          onClose={() => showPreview(null)}
          onDownload={(item) => void actions.download([item])}
          onLink={(item) => setModal({ kind: 'link', item })}
          onEdit={(item) => setModal({ kind: 'edit', item })}
        />
      )}
      {modal?.kind === 'newFolder' && (
        <NewFolderDialog taken={names} onCreate={actions.makeFolder} onClose={() => setModal(null)} />
      )}
      {modal?.kind === 'copyMove' && (
        <CopyMoveDialog
          tree={tree}
          kind={modal.mode}
          items={modal.items}
          from={folder}
          onStarted={() => {
            setModal({ kind: 'tasks' });
            setSelection(EMPTY_SELECTION);
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'tasks' && <TasksDialog tree={tree} onClose={() => setModal(null)} />}
      {modal?.kind === 'link' && <LinkDialog tree={tree} item={modal.item} onClose={() => setModal(null)} />}
      {modal?.kind === 'share' && (
        <ShareDialog tree={tree} item={modal.item} onClose={() => setModal(null)} />
      )}
      {modal?.kind === 'bundle' && (
        <Dialog
          open
          onOpenChange={(open) => !open && setModal(null)}
          title={t('upload.bundle.heading')}
          testId="bundle-dialog"
        >
          <ShareAsBundle
            items={modal.items.map((item) => ({ type: 'path', value: item.path }))}
            description={t('explorer.bundleDescription', { count: modal.items.length })}
          />
        </Dialog>
      )}
      {modal?.kind === 'edit' && (
        <TextEditorDialog
          tree={tree}
          item={modal.item}
          onClose={() => setModal(null)}
          onSaved={() => void actions.refresh()}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmDialog
          title={t('explorer.delete.title', { count: modal.items.length })}
          description={
            modal.items.length === 1
              ? t('explorer.delete.one', { name: modal.items[0]!.name })
              : t('explorer.delete.many', { count: modal.items.length })
          }
          confirmLabel={t('explorer.delete.confirm')}
          pending={actions.removing}
          error={actions.removeError}
          onConfirm={() =>
            void actions.remove(modal.items).then((ok) => {
              if (ok) {
                setModal(null);
                setSelection(EMPTY_SELECTION);
              }
            })
          }
          onClose={() => setModal(null)}
          testId="delete-dialog"
        />
      )}
    </div>
  );
}
