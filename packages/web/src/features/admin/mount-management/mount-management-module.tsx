/**
 * Admin module "mount-management" (docs/product.md §2, §5): the mounts (virtual folders showing a storage
 * config, local disk or S3, in the mount explorer and over WebDAV), searchable, with create and
 * edit dialogs, activate / deactivate, and delete after a confirmation that says the files stay.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Mount } from '@cubby/shared';
import { EmptyState } from '../../../components/list-states.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';
import { useDeleteMount, useMounts, useUpdateMount } from './api/mounts.ts';
import { MountDialog } from './components/mount-dialog.tsx';
import { MountList } from './components/mount-list.tsx';
import { filterMounts } from './mount-form.ts';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

type Editing = { kind: 'create' } | { kind: 'edit'; mount: Mount };

export default function MountManagementModule() {
  const { t } = useTranslation();
  const mounts = useMounts();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Mount | null>(null);
  const toggle = useUpdateMount();
  const remove = useDeleteMount();

  const setActive = (mount: Mount) => {
    const active = !mount.is_active;
    toggle.mutate(
      { id: mount.id, input: { is_active: active } },
      {
        onSuccess: () =>
          showToast(
            t(active ? 'admin.mounts.toggle.activated' : 'admin.mounts.toggle.deactivated', {
              name: mount.name,
            }),
            'success',
          ),
        onError: (error) => showToast(errorMessage(error), 'error'),
      },
    );
  };

  const shown = mounts.data ? filterMounts(mounts.data, search) : [];
  return (
    <ManagedListCard
      title={t('admin.modules.mountManagement')}
      description={t('admin.descriptions.mountManagement')}
      create={{
        label: t('admin.mounts.create.open'),
        testId: 'create-mount',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={mounts}
      items={mounts.data}
      empty={{
        title: t('admin.mounts.empty.title'),
        description: t('admin.mounts.empty.description'),
        testId: 'mounts-empty',
      }}
      rows={() => (
        <>
          <div className="mb-4 flex">
            <SearchField
              id="mount-search"
              testId="mount-search"
              label={t('admin.mounts.search.label')}
              placeholder={t('admin.mounts.search.placeholder')}
              value={search}
              onChange={setSearch}
            />
          </div>
          {shown.length === 0 ? (
            <EmptyState
              title={t('admin.mounts.empty.noMatch')}
              description={t('admin.mounts.empty.noMatchDescription')}
              testId="mounts-empty"
            />
          ) : (
            <MountList
              mounts={shown}
              onEdit={(mount) => setEditing({ kind: 'edit', mount })}
              onToggle={setActive}
              onDelete={setDeleting}
            />
          )}
        </>
      )}
    >
      {editing && (
        <MountDialog
          key={editing.kind === 'edit' ? editing.mount.id : 'create'}
          mount={editing.kind === 'edit' ? editing.mount : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <RevokeConfirm
          id={deleting.id}
          mutation={remove}
          title={t('admin.mounts.delete.title')}
          description={t('admin.mounts.delete.description', {
            name: deleting.name,
            path: deleting.mount_path,
          })}
          confirmLabel={t('admin.mounts.delete.confirm')}
          doneMessage={t('admin.mounts.delete.done', { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}
