/**
 * Creating or editing a storage config. Mounted only while open (with a `key` per record), so the
 * form starts from the record or from the chosen provider's preset. Nothing secret is ever read
 * back: on edit the credential fields start empty and empty means "keep".
 */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { submitForm } from '../../../../lib/forms/submit-form.ts';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import { useCreateStorageConfig, useUpdateStorageConfig } from '../api/mutate-storage-configs.ts';
import type { StorageConfig } from '../api/types.ts';
import { applyProvider, emptyStorageForm, validateStorageForm, valuesOf } from '../storage-form.ts';
import { StorageFormFields } from './storage-form-fields.tsx';
import { useStorageForm } from './use-storage-form.ts';

export function StorageConfigDialog({ config, onClose }: { config?: StorageConfig; onClose(): void }) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const { errorScope, ...form } = useStorageForm(config ? valuesOf(config) : emptyStorageForm());
  const create = useCreateStorageConfig();
  const update = useUpdateStorageConfig();
  const pending = create.isPending || update.isPending;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: (values) => validateStorageForm(values, config ? 'edit' : 'create'),
      save: (input, done) =>
        config ? update.mutate({ id: config.id, input }, done) : create.mutate(input, done),
      savedMessage: ({ name }) =>
        t(config ? 'admin.storage.edit.saved' : 'admin.storage.create.done', { name }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={config ? t('admin.storage.edit.title') : t('admin.storage.create.title')}
      description={
        config
          ? t('admin.storage.edit.description', { name: storageName(config.name) })
          : t('admin.storage.create.description')
      }
      testId="storage-config-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate>
        <StorageFormFields
          form={form}
          stored={config}
          onProviderChange={(providerType) => form.change(applyProvider(form.values, providerType))}
        />
        {form.formError && (
          <Alert tone="error" className="mt-4" testId="storage-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={pending}
          submitTestId="save-storage-config"
          {...(config ? {} : { submitLabel: t('admin.storage.create.submit') })}
        />
      </form>
    </Dialog>
  );
}
