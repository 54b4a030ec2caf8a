/**
 * Admin module "file-management" (spec §2): the file shares, 50 per page, searchable (name, link
 * suffix, remark; debounced), with a details dialog (link, copy, QR), opening the share page in a
 * new tab, edit, delete and multi-select delete. Deleting a share deletes its file in storage. An
 * API key with the file permission sees and manages only its own (the `/user/files` endpoints).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { isApiError } from '../../../lib/api/index.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useManagementScope } from '../../pastes/index.ts';
import { useBatchDeleteFileShares, useDeleteFileShare, useFileShares } from './api/file-shares.ts';
import type { FileShare } from './api/types.ts';
import { EditFileDialog } from './components/edit-file-dialog.tsx';
import { FileDetailsDialog } from './components/file-details-dialog.tsx';
import { FileList } from './components/file-list.tsx';

/** File shares per page (spec §9: files list default limit 50). */
export const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

type Confirming = { kind: 'one'; file: FileShare } | { kind: 'batch'; ids: string[] };

export default function FileManagementModule() {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const files = useFileShares(scope, { page, limit: PAGE_SIZE, search: query });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [details, setDetails] = useState<FileShare | null>(null);
  const [editing, setEditing] = useState<FileShare | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const removeOne = useDeleteFileShare();
  const removeMany = useBatchDeleteFileShares();

  const [shownQuery, setShownQuery] = useState(query);
  if (shownQuery !== query) {
    // A new search starts on its first page with nothing selected.
    setShownQuery(query);
    setPage(1);
    setSelected(new Set());
  }

  const items = files.data?.items ?? [];
  const goTo = (next: number) => {
    setPage(next);
    setSelected(new Set());
  };

  const closeConfirm = () => {
    setConfirming(null);
    setConfirmError(null);
  };
  const fail = (error: unknown) =>
    setConfirmError(isApiError(error) ? error.message : t('errors.unexpected'));
  const afterRemoval = (count: number) => {
    // The page may now be past the end: step back when it emptied.
    if (count >= items.length && page > 1) setPage(page - 1);
    setSelected(new Set());
    closeConfirm();
  };

  const confirm = () => {
    if (!confirming) return;
    setConfirmError(null);
    if (confirming.kind === 'one') {
      removeOne.mutate(
        { scope, id: confirming.file.id },
        {
          onSuccess: () => {
            showToast(t('admin.files.delete.done', { name: confirming.file.filename }), 'success');
            afterRemoval(1);
          },
          onError: fail,
        },
      );
    } else {
      removeMany.mutate(
        { scope, ids: confirming.ids },
        {
          onSuccess: (count) => {
            showToast(t('admin.files.batchDelete.done', { count }), 'success');
            afterRemoval(confirming.ids.length);
          },
          onError: fail,
        },
      );
    }
  };

  return (
    <Card
      as="h1"
      title={t('admin.modules.fileManagement')}
      description={scope === 'admin' ? t('admin.descriptions.fileManagement') : t('admin.files.ownOnly')}
    >
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SearchField
          id="file-search"
          label={t('admin.files.search.label')}
          placeholder={t('admin.files.search.placeholder')}
          value={search}
          onChange={setSearch}
          testId="file-search"
        />
        {selected.size > 0 && (
          <Button
            variant="danger"
            onClick={() => setConfirming({ kind: 'batch', ids: [...selected] })}
            data-testid="batch-delete-files"
          >
            <TrashIcon className="size-4" />
            {t('admin.files.batchDelete.open', { count: selected.size })}
          </Button>
        )}
      </div>

      {files.isPending ? (
        <PageLoading />
      ) : files.isError ? (
        <LoadError error={files.error} onRetry={() => void files.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          title={query.trim() ? t('admin.files.empty.noMatch') : t('admin.files.empty.title')}
          description={
            query.trim() ? t('admin.files.empty.noMatchDescription') : t('admin.files.empty.description')
          }
          testId="files-empty"
        />
      ) : (
        <div className={files.isPlaceholderData ? 'opacity-60' : ''}>
          <FileList
            files={items}
            now={files.dataUpdatedAt}
            selected={selected}
            onToggle={(id, on) =>
              setSelected((current) => {
                const next = new Set(current);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              })
            }
            onToggleAll={(on) => setSelected(on ? new Set(items.map((file) => file.id)) : new Set())}
            onDetails={setDetails}
            onEdit={setEditing}
            onDelete={(file) => setConfirming({ kind: 'one', file })}
          />
        </div>
      )}
      {files.data && files.data.total > 0 && (
        <div className="mt-4 border-t border-border pt-4">
          <Pagination
            page={page}
            totalPages={files.data.totalPages}
            total={files.data.total}
            onPageChange={goTo}
          />
        </div>
      )}

      {details && <FileDetailsDialog file={details} onClose={() => setDetails(null)} />}
      {editing && <EditFileDialog key={editing.id} file={editing} onClose={() => setEditing(null)} />}
      {confirming && (
        <ConfirmDialog
          title={
            confirming.kind === 'one' ? t('admin.files.delete.title') : t('admin.files.batchDelete.title')
          }
          description={
            confirming.kind === 'one'
              ? t('admin.files.delete.description', { name: confirming.file.filename })
              : t('admin.files.batchDelete.description', { count: confirming.ids.length })
          }
          confirmLabel={
            confirming.kind === 'one' ? t('admin.files.delete.confirm') : t('admin.files.batchDelete.confirm')
          }
          onConfirm={confirm}
          onClose={closeConfirm}
          pending={removeOne.isPending || removeMany.isPending}
          error={confirmError}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}
