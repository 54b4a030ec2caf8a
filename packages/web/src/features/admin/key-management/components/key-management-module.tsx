/** Admin module "key-management" (docs/product.md §2, §5): list, create, edit and delete API keys. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@cubby/shared';
import { useApiKeys } from '../api/get-api-keys.ts';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { DeleteKeyDialog } from './delete-key-dialog.tsx';
import { EditKeyDialog } from './edit-key-dialog.tsx';
import { KeyList } from './key-list.tsx';
import { ManagedListCard } from '../../components/managed-list-card.tsx';

export default function KeyManagementModule() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyView | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);

  return (
    <ManagedListCard
      title={t('admin.modules.keyManagement')}
      description={t('admin.descriptions.keyManagement')}
      create={{ label: t('keys.create.open'), testId: 'create-key', onClick: () => setCreating(true) }}
      list={keys}
      items={keys.data}
      empty={{ title: t('keys.empty.title'), description: t('keys.empty.description') }}
      rows={(items) => (
        <KeyList keys={items} now={keys.dataUpdatedAt} onEdit={setEditing} onDelete={setDeleting} />
      )}
    >
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
      {editing && <EditKeyDialog key={editing.id} apiKey={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteKeyDialog key={deleting.id} apiKey={deleting} onClose={() => setDeleting(null)} />}
    </ManagedListCard>
  );
}
