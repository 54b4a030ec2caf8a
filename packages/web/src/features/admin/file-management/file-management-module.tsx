/**
 * Admin module "file-management" (docs/product.md §2): the file shares, 50 per page, searchable (name, link
 * suffix, remark; debounced), the shares published by uploads into mounts shown, hidden or shown
 * alone, with a details dialog (link, copy, QR), opening the share page in a new tab, edit, delete
 * and multi-select delete. Deleting a share deletes its file in storage, except a file uploaded into
 * a mount, which stays there. An API key with the file permission sees and manages only its own (the
 * `/user/files` endpoints).
 */
import type { FileItem, FileSource } from '@cubby/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/card.tsx';
import { SelectField } from '../../../components/form-field.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { useManagementScope } from '../../pastes/index.ts';
import { ShareListPanel, useConfirmation, useShareList } from '../../shares/index.ts';
import {
  useBatchDeleteFileShares,
  useDeleteFileShare,
  useFileShares,
  useRevokeFileShare,
} from './api/file-shares.ts';
import { EditFileDialog } from './components/edit-file-dialog.tsx';
import { FileDetailsDialog } from './components/file-details-dialog.tsx';
import { FileList } from './components/file-list.tsx';

/** File shares per page (docs/product.md §9: files list default limit 50). */
export const PAGE_SIZE = 50;

type Confirming =
  { kind: 'one'; file: FileItem } | { kind: 'revoke'; file: FileItem } | { kind: 'batch'; ids: string[] };

export default function FileManagementModule() {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const list = useShareList();
  const [source, setSource] = useState<FileSource | 'all'>('all');
  const files = useFileShares(scope, { page: list.page, limit: PAGE_SIZE, search: list.query, source });
  const [details, setDetails] = useState<FileItem | null>(null);
  const [editing, setEditing] = useState<FileItem | null>(null);
  const confirmation = useConfirmation<Confirming>();
  const { confirming } = confirmation;
  const removeOne = useDeleteFileShare();
  const removeMany = useBatchDeleteFileShares();
  const revoke = useRevokeFileShare();

  const items = files.data?.items ?? [];
  const narrowed = list.searching || source !== 'all';
  const keepsMountFiles = (ids: string[]) => items.some((file) => ids.includes(file.id) && file.keeps_file);
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
        { scope, id: confirming.file.id },
        {
          onSuccess: () => removed(t('admin.files.delete.done', { name: confirming.file.filename }), 1),
          onError: confirmation.fail,
        },
      );
    } else if (confirming.kind === 'revoke') {
      revoke.mutate(
        { scope, id: confirming.file.id },
        {
          onSuccess: () => {
            showToast(t('admin.files.revoke.done', { name: confirming.file.filename }), 'success');
            confirmation.close();
          },
          onError: confirmation.fail,
        },
      );
    } else {
      removeMany.mutate(
        { scope, ids: confirming.ids },
        {
          onSuccess: (count) => removed(t('admin.files.batchDelete.done', { count }), confirming.ids.length),
          onError: confirmation.fail,
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
      <ShareListPanel
        list={list}
        query={files}
        count={items.length}
        paging={files.data}
        search={{
          id: 'file-search',
          label: t('admin.files.search.label'),
          placeholder: t('admin.files.search.placeholder'),
        }}
        filters={
          <div className="w-full sm:w-56">
            <SelectField
              label={t('admin.files.filter')}
              labelHidden
              name="source"
              value={source}
              onChange={(event) => {
                setSource(event.target.value as FileSource | 'all');
                list.showPage(1);
              }}
              data-testid="file-source-filter"
            >
              {(['all', 'share', 'mount_upload'] as const).map((value) => (
                <option key={value} value={value}>
                  {t(`admin.files.filters.${value}`)}
                </option>
              ))}
            </SelectField>
          </div>
        }
        batchDelete={{
          label: t('admin.files.batchDelete.open', { count: list.selected.size }),
          testId: 'batch-delete-files',
          onClick: () => confirmation.open({ kind: 'batch', ids: [...list.selected] }),
        }}
        empty={{
          title: narrowed ? t('admin.files.empty.noMatch') : t('admin.files.empty.title'),
          description: narrowed
            ? t('admin.files.empty.noMatchDescription')
            : t('admin.files.empty.description'),
          testId: 'files-empty',
        }}
      >
        <FileList
          files={items}
          now={files.dataUpdatedAt}
          {...list.selection(items)}
          onDetails={setDetails}
          onEdit={setEditing}
          onDelete={(file) => confirmation.open({ kind: 'one', file })}
          onRevoke={(file) => confirmation.open({ kind: 'revoke', file })}
        />
      </ShareListPanel>

      {details && <FileDetailsDialog file={details} onClose={() => setDetails(null)} />}
      {editing && <EditFileDialog key={editing.id} file={editing} onClose={() => setEditing(null)} />}
      {confirming && (
        <ConfirmDialog
          title={
            confirming.kind === 'revoke'
              ? t('admin.files.revoke.title')
              : confirming.kind === 'one'
                ? t('admin.files.delete.title')
                : t('admin.files.batchDelete.title')
          }
          description={
            confirming.kind === 'revoke'
              ? t('admin.files.revoke.description', { name: confirming.file.filename })
              : confirming.kind === 'one'
                ? confirming.file.keeps_file
                  ? t('admin.files.delete.descriptionKeepsFile', { name: confirming.file.filename })
                  : t('admin.files.delete.description', { name: confirming.file.filename })
                : keepsMountFiles(confirming.ids)
                  ? t('admin.files.batchDelete.descriptionKeepsMountFiles', { count: confirming.ids.length })
                  : t('admin.files.batchDelete.description', { count: confirming.ids.length })
          }
          confirmLabel={
            confirming.kind === 'revoke'
              ? t('admin.files.revoke.confirm')
              : confirming.kind === 'one'
                ? t('admin.files.delete.confirm')
                : t('admin.files.batchDelete.confirm')
          }
          onConfirm={confirm}
          onClose={confirmation.close}
          pending={removeOne.isPending || removeMany.isPending || revoke.isPending}
          error={confirmation.error}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}
