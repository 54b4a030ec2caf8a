/** Admin module "key-management" (docs/product.md §2, §5): list, create, edit and delete API keys. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@cubby/shared';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { PlusIcon } from '../../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { useApiKeys } from '../api/get-api-keys.ts';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { DeleteKeyDialog } from './delete-key-dialog.tsx';
import { EditKeyDialog } from './edit-key-dialog.tsx';
import { KeyList } from './key-list.tsx';

export default function KeyManagementModule() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyView | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);

  return (
    <Card
      as="h1"
      title={t('admin.modules.keyManagement')}
      description={t('admin.descriptions.keyManagement')}
      actions={
        <Button onClick={() => setCreating(true)} data-testid="create-key">
          <PlusIcon className="size-4" />
          {t('keys.create.open')}
        </Button>
      }
    >
      {keys.isPending ? (
        <PageLoading />
      ) : keys.isError ? (
        <LoadError error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyState title={t('keys.empty.title')} description={t('keys.empty.description')} />
      ) : (
        <KeyList keys={keys.data} now={keys.dataUpdatedAt} onEdit={setEditing} onDelete={setDeleting} />
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
      {editing && <EditKeyDialog key={editing.id} apiKey={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteKeyDialog key={deleting.id} apiKey={deleting} onClose={() => setDeleting(null)} />}
    </Card>
  );
}
