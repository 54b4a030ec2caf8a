/** Editing a key: name, permissions, base path and expiry (the key itself never changes). */
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { useUpdateApiKey } from '../api/update-api-key.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { EMPTY_KEY_FORM, isNeverExpiring, validateUpdate, type KeyFormValues } from '../key-form.ts';
import { KeyFormFields } from './key-form-fields.tsx';
import { useKeyForm } from './use-key-form.ts';

function valuesOf(key: ApiKeyView): KeyFormValues {
  return {
    ...EMPTY_KEY_FORM,
    name: key.name,
    text: key.text_permission,
    file: key.file_permission,
    mount: key.mount_permission,
    basePath: key.basic_path,
    expiry: 'keep',
  };
}

/** Mounted only while open (with a `key` per record), so the form starts from the record. */
export function EditKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyView; onClose(): void }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useKeyForm(valuesOf(apiKey));
  const update = useUpdateApiKey();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateUpdate(form.values);
    if (!result.ok) {
      form.setErrors(result.errors);
      form.setFormError(null);
      return;
    }
    form.setFormError(null);
    update.mutate(
      { id: apiKey.id, input: result.input },
      {
        onSuccess: () => {
          showToast(t('keys.edit.saved', { name: form.values.name.trim() }), 'success');
          onClose();
        },
        onError: (error) => form.showServerError(error, t('errors.unexpected')),
      },
    );
  };

  const currentExpiry = isNeverExpiring(apiKey.expires_at)
    ? t('keys.never')
    : formatDateTime(apiKey.expires_at);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('keys.edit.title')}
      description={t('keys.edit.description', { name: apiKey.name })}
      testId="edit-key-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate>
        <KeyFormFields
          values={form.values}
          errors={form.errors}
          serverErrors={form.serverErrors}
          onChange={form.change}
          currentExpiry={currentExpiry}
        />
        {form.formError && (
          <Alert tone="error" className="mt-4" testId="key-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions onCancel={onClose} pending={update.isPending} />
      </form>
    </Dialog>
  );
}
