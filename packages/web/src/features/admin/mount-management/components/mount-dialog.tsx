/**
 * Creating or editing a mount. Mounted only while open (with a `key` per record); the form starts
 * once the storage configs are loaded, from the record, or empty on the default storage config.
 */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Mount } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { submitForm } from '../../../../lib/forms/submit-form.ts';
import { useStorageConfigs } from '../../storage-config/api/get-storage-configs.ts';
import type { StorageConfig } from '../../storage-config/api/types.ts';
import { useCreateMount, useUpdateMount } from '../api/mounts.ts';
import { emptyMountForm, validateMountForm, valuesOf } from '../mount-form.ts';
import { MountFormFields } from './mount-form-fields.tsx';
import { useMountForm } from './use-mount-form.ts';

export function MountDialog({ mount, onClose }: { mount?: Mount; onClose(): void }) {
  const { t } = useTranslation();
  const configs = useStorageConfigs();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={mount ? t('admin.mounts.edit.title') : t('admin.mounts.create.title')}
      description={
        mount
          ? t('admin.mounts.edit.description', { name: mount.name })
          : t('admin.mounts.create.description')
      }
      testId="mount-dialog"
    >
      {configs.isPending ? (
        <PageLoading />
      ) : configs.isError ? (
        <LoadError error={configs.error} onRetry={() => void configs.refetch()} />
      ) : (
        <MountForm mount={mount} configs={configs.data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function MountForm({
  mount,
  configs,
  onClose,
}: {
  mount: Mount | undefined;
  configs: StorageConfig[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const defaultConfig = configs.find((config) => config.is_default === 1) ?? configs[0];
  const { errorScope, ...form } = useMountForm(mount ? valuesOf(mount) : emptyMountForm(defaultConfig?.id));
  const create = useCreateMount();
  const update = useUpdateMount();

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateMountForm,
      save: (input, done) =>
        mount ? update.mutate({ id: mount.id, input }, done) : create.mutate(input, done),
      savedMessage: ({ name }) => t(mount ? 'admin.mounts.edit.saved' : 'admin.mounts.create.done', { name }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <form ref={errorScope} onSubmit={onSubmit} noValidate>
      <MountFormFields form={form} configs={configs} />
      {form.formError && (
        <Alert tone="error" className="mt-4" testId="mount-form-error">
          {form.formError}
        </Alert>
      )}
      <FormDialogActions
        onCancel={onClose}
        pending={create.isPending || update.isPending}
        submitTestId="save-mount"
        {...(mount ? {} : { submitLabel: t('admin.mounts.create.submit') })}
      />
    </form>
  );
}
