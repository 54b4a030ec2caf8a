/**
 * Admin module "text-management" (docs/product.md §2): the text shares, 10 per page, searchable (link
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
import { showToast } from '../../../components/toast/toast-store.ts';
import {
  EditPasteDialog,
  useBatchDeletePastes,
  useClearExpiredPastes,
  useDeletePaste,
  useManagementScope,
  usePastes,
  useRevokePaste,
} from '../../pastes/index.ts';
import { ShareListPanel, useConfirmation, useShareList } from '../../shares/index.ts';
import { PasteList } from './components/paste-list.tsx';
import { PreviewPasteDialog } from './components/preview-paste-dialog.tsx';

/** Pastes per page (docs/product.md §9). */
export const PAGE_SIZE = 10;

type Confirming =
  | { kind: 'one'; paste: PasteSummary }
  | { kind: 'revoke'; paste: PasteSummary }
  | { kind: 'batch'; ids: string[] }
  | { kind: 'clear' };

export default function TextManagementModule() {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const list = useShareList();
  const pastes = usePastes(scope, { page: list.page, limit: PAGE_SIZE, search: list.query });
  const [previewing, setPreviewing] = useState<PasteSummary | null>(null);
  const [editing, setEditing] = useState<PasteSummary | null>(null);
  const confirmation = useConfirmation<Confirming>();
  const { confirming } = confirmation;
  const removeOne = useDeletePaste();
  const removeMany = useBatchDeletePastes();
  const clearExpired = useClearExpiredPastes();
  const revoke = useRevokePaste();

  const items = pastes.data?.items ?? [];
  const removed = (message: string, count: number) => {
    showToast(message, 'success');
    list.afterRemoval(count, items.length);
    confirmation.close();
  };

  const confirm = () => {
    if (!confirming) return;
    confirmation.retry();
    if (confirming.kind === 'one') {
      removeOne.mutate(
        { scope, id: confirming.paste.id },
        {
          onSuccess: () => removed(t('textManagement.delete.done', { slug: confirming.paste.slug }), 1),
          onError: confirmation.fail,
        },
      );
    } else if (confirming.kind === 'revoke') {
      revoke.mutate(
        { scope, id: confirming.paste.id },
        {
          onSuccess: () => {
            showToast(t('textManagement.revoke.done', { slug: confirming.paste.slug }), 'success');
            confirmation.close();
          },
          onError: confirmation.fail,
        },
      );
    } else if (confirming.kind === 'batch') {
      removeMany.mutate(
        { scope, ids: confirming.ids },
        {
          onSuccess: (count) =>
            removed(t('textManagement.batchDelete.done', { count }), confirming.ids.length),
          onError: confirmation.fail,
        },
      );
    } else {
      clearExpired.mutate(undefined, {
        onSuccess: (count) => {
          showToast(t('textManagement.clearExpired.done', { count }), 'success');
          list.showPage(1);
          confirmation.close();
        },
        onError: confirmation.fail,
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
      : confirming?.kind === 'revoke'
        ? {
            title: t('textManagement.revoke.title'),
            description: t('textManagement.revoke.description', { slug: confirming.paste.slug }),
            label: t('textManagement.revoke.confirm'),
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
            onClick={() => confirmation.open({ kind: 'clear' })}
            data-testid="clear-expired"
          >
            {t('textManagement.clearExpired.open')}
          </Button>
        )
      }
    >
      <ShareListPanel
        list={list}
        query={pastes}
        count={items.length}
        paging={pastes.data?.pagination}
        search={{
          id: 'paste-search',
          label: t('textManagement.search.label'),
          placeholder: t('textManagement.search.placeholder'),
        }}
        batchDelete={{
          label: t('textManagement.batchDelete.open', { count: list.selected.size }),
          testId: 'batch-delete',
          onClick: () => confirmation.open({ kind: 'batch', ids: [...list.selected] }),
        }}
        empty={{
          title: list.searching ? t('textManagement.empty.noMatch') : t('textManagement.empty.title'),
          description: list.searching
            ? t('textManagement.empty.noMatchDescription')
            : t('textManagement.empty.description'),
          testId: 'pastes-empty',
        }}
      >
        <PasteList
          pastes={items}
          {...list.selection(items)}
          onPreview={setPreviewing}
          onEdit={setEditing}
          onDelete={(paste) => confirmation.open({ kind: 'one', paste })}
          onRevoke={(paste) => confirmation.open({ kind: 'revoke', paste })}
        />
      </ShareListPanel>

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
          onClose={confirmation.close}
          pending={removeOne.isPending || removeMany.isPending || clearExpired.isPending || revoke.isPending}
          error={confirmation.error}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}
