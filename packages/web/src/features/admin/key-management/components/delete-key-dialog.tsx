/** Confirmation before a key is deleted; clients using it stop working at once. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { Dialog, DialogActions } from '../../../../components/dialog.tsx';
import { Spinner } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';

export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyView; onClose(): void }) {
  const { t } = useTranslation();
  const remove = useDeleteApiKey();
  const [error, setError] = useState<string | null>(null);

  const confirm = () => {
    setError(null);
    remove.mutate(apiKey.id, {
      onSuccess: () => {
        showToast(t('keys.delete.done', { name: apiKey.name }), 'success');
        onClose();
      },
      onError: (caught) => setError(errorMessage(caught)),
    });
  };

  return (
    <Dialog
      open
      role="alertdialog"
      onOpenChange={(open) => !open && onClose()}
      title={t('keys.delete.title')}
      description={t('keys.delete.description', { name: apiKey.name })}
      testId="delete-key-dialog"
    >
      {error && <Alert tone="error">{error}</Alert>}
      <DialogActions>
        <Button variant="secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending && <Spinner className="size-4 text-white" />}
          {t('keys.delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
