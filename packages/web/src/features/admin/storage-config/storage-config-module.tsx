/**
 * Admin module "storage-config" (docs/product.md §2, §3): the storage configs (local disk and S3-compatible
 * buckets), with create and edit dialogs, the storage test and its per-step report, "make default"
 * and delete (refused with the server's message while file shares use the config).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';
import { useStorageConfigName } from '../../../lib/i18n/storage-config-name.ts';
import { useStorageConfigs } from './api/get-storage-configs.ts';
import { useDeleteStorageConfig, useSetDefaultStorageConfig } from './api/mutate-storage-configs.ts';
import { useTestStorageConfig } from './api/test-storage-config.ts';
import type { StorageConfig } from './api/types.ts';
import { StorageConfigDialog } from './components/storage-config-dialog.tsx';
import { StorageConfigList } from './components/storage-config-list.tsx';
import { TestReportDialog } from './components/test-report-dialog.tsx';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

type Editing = { kind: 'create' } | { kind: 'edit'; config: StorageConfig };

export default function StorageConfigModule() {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const configs = useStorageConfigs();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<StorageConfig | null>(null);
  const [testing, setTesting] = useState<StorageConfig | null>(null);
  const remove = useDeleteStorageConfig();
  const setDefault = useSetDefaultStorageConfig();
  const test = useTestStorageConfig();

  const runTest = (config: StorageConfig) => {
    setTesting(config);
    test.mutate(config.id);
  };
  const closeTest = () => {
    setTesting(null);
    test.reset();
  };

  const makeDefault = (config: StorageConfig) =>
    setDefault.mutate(config.id, {
      onSuccess: () =>
        showToast(t('admin.storage.setDefault.done', { name: storageName(config.name) }), 'success'),
      onError: (error) => showToast(errorMessage(error), 'error'),
    });

  return (
    <ManagedListCard
      title={t('admin.modules.storageConfig')}
      description={t('admin.descriptions.storageConfig')}
      create={{
        label: t('admin.storage.create.open'),
        testId: 'create-storage-config',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={configs}
      items={configs.data}
      empty={{ title: t('admin.storage.empty.title'), description: t('admin.storage.empty.description') }}
      rows={(items) => (
        <StorageConfigList
          configs={items}
          onTest={runTest}
          onSetDefault={makeDefault}
          onEdit={(config) => setEditing({ kind: 'edit', config })}
          onDelete={setDeleting}
          settingDefaultId={setDefault.isPending ? (setDefault.variables ?? null) : null}
        />
      )}
    >
      {editing && (
        <StorageConfigDialog
          key={editing.kind === 'edit' ? editing.config.id : 'create'}
          config={editing.kind === 'edit' ? editing.config : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {testing && (
        <TestReportDialog
          config={testing}
          report={test.data}
          error={test.isError ? errorMessage(test.error) : null}
          pending={test.isPending}
          onRetry={() => test.mutate(testing.id)}
          onClose={closeTest}
        />
      )}
      {deleting && (
        <RevokeConfirm
          id={deleting.id}
          mutation={remove}
          title={t('admin.storage.delete.title')}
          description={t('admin.storage.delete.description', { name: storageName(deleting.name) })}
          confirmLabel={t('admin.storage.delete.confirm')}
          doneMessage={t('admin.storage.delete.done', { name: storageName(deleting.name) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}
