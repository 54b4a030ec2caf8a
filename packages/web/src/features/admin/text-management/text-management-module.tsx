/**
 * Admin module "text-management" (spec §2): the text shares, 10 per page, searchable (link
 * suffix, remark, content; debounced), with preview, edit, delete, multi-select delete and — for
 * the admin — clearing expired and used-up shares. An API key with the text permission sees and
 * manages only its own (the `/user/pastes` endpoints).
 */
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasteSummary } from '@cubby/shared';
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
import {
  EditPasteDialog,
  useBatchDeletePastes,
  useClearExpiredPastes,
  useDeletePaste,
  useManagementScope,
  usePastes,
} from '../../pastes/index.ts';
import { PasteList } from './components/paste-list.tsx';
import { PreviewPasteDialog } from './components/preview-paste-dialog.tsx';

/** Pastes per page (spec §9). */
export const PAGE_SIZE = 10;
const SEARCH_DELAY_MS = 300;

type Confirming = { kind: 'one'; paste: PasteSummary } | { kind: 'batch'; ids: string[] } | { kind: 'clear' };

export default function TextManagementModule() {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const pastes = usePastes(scope, { page, limit: PAGE_SIZE, search: query });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [previewing, setPreviewing] = useState<PasteSummary | null>(null);
  const [editing, setEditing] = useState<PasteSummary | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const removeOne = useDeletePaste();
  const removeMany = useBatchDeletePastes();
  const clearExpired = useClearExpiredPastes();

  const [shownQuery, setShownQuery] = useState(query);
  if (shownQuery !== query) {
    // A new search starts on its first page with nothing selected.
    setShownQuery(query);
    setPage(1);
    setSelected(new Set());
  }

  const items = pastes.data?.items ?? [];
  const pagination = pastes.data?.pagination;
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
  };

  const confirm = () => {
    if (!confirming) return;
    setConfirmError(null);
    if (confirming.kind === 'one') {
      removeOne.mutate(
        { scope, id: confirming.paste.id },
        {
          onSuccess: () => {
            showToast(t('textManagement.delete.done', { slug: confirming.paste.slug }), 'success');
            afterRemoval(1);
            closeConfirm();
          },
          onError: fail,
        },
      );
    } else if (confirming.kind === 'batch') {
      removeMany.mutate(
        { scope, ids: confirming.ids },
        {
          onSuccess: (count) => {
            showToast(t('textManagement.batchDelete.done', { count }), 'success');
            afterRemoval(confirming.ids.length);
            closeConfirm();
          },
          onError: fail,
        },
      );
    } else {
      clearExpired.mutate(undefined, {
        onSuccess: (count) => {
          showToast(t('textManagement.clearExpired.done', { count }), 'success');
          setSelected(new Set());
          setPage(1);
          closeConfirm();
        },
        onError: fail,
      });
    }
  };

  const confirmText =
    confirming?.kind === 'one'
      ? {
          title: t('textManagement.delete.title'),
          description: t('textManagement.delete.description', { slug: confirming.paste.slug }),
          label: t('textManagement.delete.confirm'),
        }
      : confirming?.kind === 'batch'
        ? {
            title: t('textManagement.batchDelete.title'),
            description: t('textManagement.batchDelete.description', { count: confirming.ids.length }),
            label: t('textManagement.batchDelete.confirm'),
          }
        : {
            title: t('textManagement.clearExpired.title'),
            description: t('textManagement.clearExpired.description'),
            label: t('textManagement.clearExpired.confirm'),
          };

  return (
    <Card
      as="h1"
      title={t('admin.modules.textManagement')}
      description={scope === 'admin' ? t('admin.descriptions.textManagement') : t('textManagement.ownOnly')}
      actions={
        scope === 'admin' && (
          <Button
            variant="secondary"
            onClick={() => setConfirming({ kind: 'clear' })}
            data-testid="clear-expired"
          >
            {t('textManagement.clearExpired.open')}
          </Button>
        )
      }
    >
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SearchField
          id="paste-search"
          label={t('textManagement.search.label')}
          placeholder={t('textManagement.search.placeholder')}
          value={search}
          onChange={setSearch}
          testId="paste-search"
        />
        {selected.size > 0 && (
          <Button
            variant="danger"
            onClick={() => setConfirming({ kind: 'batch', ids: [...selected] })}
            data-testid="batch-delete"
          >
            <TrashIcon className="size-4" />
            {t('textManagement.batchDelete.open', { count: selected.size })}
          </Button>
        )}
      </div>

      {pastes.isPending ? (
        <PageLoading />
      ) : pastes.isError ? (
        <LoadError error={pastes.error} onRetry={() => void pastes.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          title={query.trim() ? t('textManagement.empty.noMatch') : t('textManagement.empty.title')}
          description={
            query.trim()
              ? t('textManagement.empty.noMatchDescription')
              : t('textManagement.empty.description')
          }
          testId="pastes-empty"
        />
      ) : (
        <div className={pastes.isPlaceholderData ? 'opacity-60' : ''}>
          <PasteList
            pastes={items}
            selected={selected}
            onToggle={(id, on) =>
              setSelected((current) => {
                const next = new Set(current);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              })
            }
            onToggleAll={(on) => setSelected(on ? new Set(items.map((paste) => paste.id)) : new Set())}
            onPreview={setPreviewing}
            onEdit={setEditing}
            onDelete={(paste) => setConfirming({ kind: 'one', paste })}
          />
        </div>
      )}
      {pagination && pagination.total > 0 && (
        <div className="mt-4 border-t border-border pt-4">
          <Pagination
            page={page}
            totalPages={pagination.totalPages}
            total={pagination.total}
            onPageChange={goTo}
          />
        </div>
      )}

      {previewing && <PreviewPasteDialog paste={previewing} onClose={() => setPreviewing(null)} />}
      {editing && (
        <Suspense fallback={null}>
          <EditPasteDialog key={editing.id} pasteId={editing.id} onClose={() => setEditing(null)} />
        </Suspense>
      )}
      {confirming && (
        <ConfirmDialog
          title={confirmText.title}
          description={confirmText.description}
          confirmLabel={confirmText.label}
          onConfirm={confirm}
          onClose={closeConfirm}
          pending={removeOne.isPending || removeMany.isPending || clearExpired.isPending}
          error={confirmError}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}
